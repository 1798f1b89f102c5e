import { Button, Group, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, unwrap } from '../api/client';
import { ConfirmModal } from '../components/ConfirmModal';
import { ErrorAlert } from '../components/ErrorAlert';
import { Instant } from '../components/Instant';
import { JobProgress } from '../components/JobProgress';
import { backupDetailMessages as text } from '../messages/backupDetail';
import { connectionName, formatBytes } from '../logic/format';
import { useCan } from '../session/me';
import { ScreenHeading } from '../components/ScreenHeading';

/** One backup: live progress while it runs (polled every second), then its counts per type and size. */
export function BackupDetailScreen() {
  const { id = '' } = useParams();
  const canRestore = useCan('restore');
  const canDelete = useCan('run backups');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const backup = useQuery({
    queryKey: ['backups', id],
    queryFn: () => unwrap(api().GET('/api/backup/{id}', { params: { path: { id } } })),
    refetchInterval: (q) => (q.state.data?.backup.status === 'running' ? 1000 : false),
  });
  const remove = useMutation({
    mutationFn: () => unwrap(api().DELETE('/api/backup/{id}', { params: { path: { id } } })),
    onSuccess: async () => {
      notifications.show({ color: 'green', message: text.deleted });
      await queryClient.invalidateQueries({ queryKey: ['backups'] });
      navigate('/backups');
    },
  });
  if (backup.error) return <ErrorAlert error={backup.error} />;
  const b = backup.data?.backup;
  if (!b) return <Text>{text.loading}</Text>;
  const counts = Object.entries(b.resource_counts).sort(([x], [y]) => x.localeCompare(y));
  return (
    <Stack>
      <ScreenHeading title={text.title(connectionName(b.connection))} />
      <JobProgress
        label={text.progress}
        status={b.status}
        summary={
          <>
            {text.summaryBefore(b.kind)}
            <Instant iso={b.started_at} />
            {text.summaryAfter(b.triggered_by)}
          </>
        }
        pct={b.progress_pct}
        message={b.status === 'failed' ? b.error_message : b.progress_message}
      />
      {b.status === 'completed' && (
        <>
          <Text>
            {text.sizeBefore(formatBytes(b.size))}
            <Instant iso={b.completed_at} />
          </Text>
          <Group>
            <Button component={Link} to={`/compare?to=${b.id}`}>
              {text.compare}
            </Button>
            {canRestore && (
              <Button component={Link} to={`/restore?backupId=${b.id}`} variant="light">
                {text.restore}
              </Button>
            )}
            {canRestore && (
              <Button component={Link} to={`/undo?backupId=${b.id}`} variant="light" color="red">
                {text.undo}
              </Button>
            )}
          </Group>
          <Table striped aria-label={text.tableLabel}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{text.columns.type}</Table.Th>
                <Table.Th>{text.columns.objects}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {counts.map(([type, count]) => (
                <Table.Tr key={type}>
                  <Table.Td>{type}</Table.Td>
                  <Table.Td>{count}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </>
      )}
      {canDelete && b.status !== 'running' && (
        <Group>
          <Button color="red" variant="light" onClick={() => setConfirming(true)}>
            {text.delete}
          </Button>
        </Group>
      )}
      <ConfirmModal
        opened={confirming}
        title={text.deleteTitle}
        confirmLabel={text.deleteConfirm}
        busy={remove.isPending}
        onConfirm={() => remove.mutate()}
        onClose={() => setConfirming(false)}
      >
        {text.deleteWarning}
        {remove.error && <ErrorAlert error={remove.error} />}
      </ConfirmModal>
    </Stack>
  );
}
