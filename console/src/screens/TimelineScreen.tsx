import { Badge, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { api, unwrap } from '../api/client';
import { ErrorAlert } from '../components/ErrorAlert';
import { describeFieldChange, fieldChanges } from '../logic/changes';
import { formatInstant } from '../logic/format';

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
      <Title order={1} size="h2">
        Timeline of {resourceType} {resourceId}
      </Title>
      {timeline.error && <ErrorAlert error={timeline.error} />}
      {timeline.data?.events.length === 0 && <Text>No backup holds this object.</Text>}
      {!!timeline.data?.events.length && (
        <Table striped aria-label="Timeline">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>When</Table.Th>
              <Table.Th>Change</Table.Th>
              <Table.Th>Fields</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {timeline.data.events.map((event) => (
              <Table.Tr key={event.backupId}>
                <Table.Td>
                  <Link to={`/backups/${event.backupId}`}>{formatInstant(event.timestamp)}</Link>
                </Table.Td>
                <Table.Td>
                  <Badge variant="light">{event.change}</Badge>
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
      )}
    </Stack>
  );
}
