import { Badge, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api, unwrap } from '../api/client';
import { ErrorAlert } from '../components/ErrorAlert';
import { JobProgress } from '../components/JobProgress';
import { connectionName, formatInstant } from '../logic/format';

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
  if (!restore) return <Text>Loading…</Text>;
  const { totals } = restore;
  return (
    <Stack>
      <Title order={1} size="h2">
        Restore to {connectionName(restore.connection)}
      </Title>
      <JobProgress
        label="Restore progress"
        status={restore.status}
        summary={`${restore.mode}, started ${formatInstant(restore.started_at ?? restore.created_at)}`}
        pct={restore.progress_pct}
        message={restore.error_message ?? restore.progress_message}
      />
      {restore.pre_restore_backup_id && (
        <Text>
          Backup taken before this restore:{' '}
          <Link to={`/backups/${restore.pre_restore_backup_id}`}>open the pre-restore backup</Link>
        </Text>
      )}
      <Text>
        {totals.create} created, {totals.update} updated, {totals.delete} deleted, {totals.skip} unchanged,{' '}
        {totals.failed} failed
      </Text>
      {!!detail.data?.items.length && (
        <Table striped aria-label="Restored items">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Type</Table.Th>
              <Table.Th>Object</Table.Th>
              <Table.Th>Action</Table.Th>
              <Table.Th>Outcome</Table.Th>
              <Table.Th>New id</Table.Th>
              <Table.Th>Notes</Table.Th>
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
                <Table.Td>{item.newId ? `${item.resourceId} → ${item.newId}` : '—'}</Table.Td>
                <Table.Td>{[item.error, ...item.notes].filter(Boolean).join(' ')}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
