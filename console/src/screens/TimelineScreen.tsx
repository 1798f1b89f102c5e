import { Badge, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { api, unwrap } from '../api/client';
import { ErrorAlert } from '../components/ErrorAlert';
import { describeFieldChange, fieldChanges } from '../logic/changes';
import { Instant } from '../components/Instant';
import { ChangedBy } from '../components/ChangedBy';
import { timelineMessages as text } from '../messages/timeline';
import { ScreenHeading } from '../components/ScreenHeading';

/** One object's history across the connection's backups (`GET /api/resource-timeline`). */
export function TimelineScreen() {
  const [params] = useSearchParams();
  const connectionId = params.get('connectionId') ?? '';
  const resourceType = params.get('resourceType') ?? '';
  const resourceId = params.get('resourceId') ?? '';
  const timeline = useQuery({
    queryKey: ['timeline', connectionId, resourceType, resourceId],
    queryFn: () =>
      unwrap(
        api().GET('/api/resource-timeline', {
          params: { query: { connectionId, resourceType, resourceId, limit: 50 } },
        }),
      ),
  });
  return (
    <Stack>
      <ScreenHeading title={text.title(resourceType, resourceId)} />
      {timeline.error && <ErrorAlert error={timeline.error} />}
      {timeline.data?.events.length === 0 && <Text>{text.none}</Text>}
      {!!timeline.data?.events.length && (
        <Table.ScrollContainer minWidth={560}>
          <Table striped aria-label={text.tableLabel}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{text.columns.when}</Table.Th>
                <Table.Th>{text.columns.change}</Table.Th>
                <Table.Th>{text.columns.changedBy}</Table.Th>
                <Table.Th>{text.columns.fields}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {timeline.data.events.map((event) => (
                <Table.Tr key={event.backupId}>
                  <Table.Td>
                    <Link to={`/backups/${event.backupId}`}>
                      <Instant iso={event.timestamp} focusable={false} />
                    </Link>
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light">{event.change}</Badge>
                  </Table.Td>
                  <Table.Td>
                    <ChangedBy change={event} />
                  </Table.Td>
                  <Table.Td>
                    {fieldChanges(event.diff)
                      .slice(0, 10)
                      .map((field, index) => (
                        <Text key={index} size="xs" ff="monospace">
                          {describeFieldChange(field)}
                        </Text>
                      ))}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
