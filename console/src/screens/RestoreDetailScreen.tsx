import { Badge, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api, unwrap } from '../api/client';
import { ErrorAlert } from '../components/ErrorAlert';
import { Instant } from '../components/Instant';
import { JobProgress } from '../components/JobProgress';
import { restoreDetailMessages as text } from '../messages/restoreDetail';
import { connectionName } from '../logic/format';
import { ScreenHeading } from '../components/ScreenHeading';

/** One restore: progress while it runs, then the totals, each item's outcome and the id map. */
export function RestoreDetailScreen() {
  const { id = '' } = useParams();
  const detail = useQuery({
    queryKey: ['restore', id],
    queryFn: () =>
      unwrap(
        api().GET('/api/restore/{restoreId}', {
          params: { path: { restoreId: id }, query: { limit: 1000 } },
        }),
      ),
    refetchInterval: (q) =>
      ['pending', 'running'].includes(q.state.data?.restore.status ?? 'pending') ? 1000 : false,
  });
  if (detail.error) return <ErrorAlert error={detail.error} />;
  const restore = detail.data?.restore;
  if (!restore) return <Text>{text.loading}</Text>;
  const { totals } = restore;
  return (
    <Stack>
      <ScreenHeading title={text.title(connectionName(restore.connection))} />
      <JobProgress
        label={text.progress}
        status={restore.status}
        summary={
          <>
            {text.summaryBefore(restore.mode)}
            <Instant iso={restore.started_at ?? restore.created_at} />
          </>
        }
        pct={restore.progress_pct}
        message={restore.error_message ?? restore.progress_message}
      />
      {restore.pre_restore_backup_id && (
        <Text>
          {text.preRestore}{' '}
          <Link to={`/backups/${restore.pre_restore_backup_id}`}>{text.openPreRestore}</Link>
        </Text>
      )}
      <Text>{text.totals(totals)}</Text>
      {!!detail.data?.items.length && (
        <Table.ScrollContainer minWidth={720}>
          <Table striped aria-label={text.tableLabel}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{text.columns.type}</Table.Th>
                <Table.Th>{text.columns.object}</Table.Th>
                <Table.Th>{text.columns.action}</Table.Th>
                <Table.Th>{text.columns.outcome}</Table.Th>
                <Table.Th>{text.columns.newId}</Table.Th>
                <Table.Th>{text.columns.notes}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {detail.data.items.map((item) => (
                <Table.Tr key={`${item.resourceType}/${item.resourceId}`}>
                  <Table.Td>{item.resourceType}</Table.Td>
                  <Table.Td>{item.name ?? item.resourceId}</Table.Td>
                  <Table.Td>{item.action}</Table.Td>
                  <Table.Td>
                    <Badge color={item.outcome === 'ok' ? 'green' : 'red'} variant="light">
                      {item.outcome}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{item.newId ? text.idMap(item.resourceId, item.newId) : text.none}</Table.Td>
                  <Table.Td>{[item.error, ...item.notes].filter(Boolean).join(' ')}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
