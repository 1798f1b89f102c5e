import { Button, Group, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api, unwrap, type Schemas } from '../api/client';
import { ConfirmModal } from '../components/ConfirmModal';
import { ErrorAlert } from '../components/ErrorAlert';
import { StatusBadge } from '../components/StatusBadge';
import { Instant } from '../components/Instant';
import { connectionName, providerLabel } from '../logic/format';
import { connectionsMessages as text } from '../messages/connections';
import { useCan } from '../session/me';
import { ConnectionFormModal } from './ConnectionFormModal';
import { ScheduleModal } from './ScheduleModal';
import { ScreenHeading } from '../components/ScreenHeading';

type Connection = Schemas['Connection'];
type Dialog = { kind: 'create' } | { kind: 'edit' | 'delete' | 'schedule'; connection: Connection } | null;

/** Connections: each with its last backup; create, edit, delete, schedule and run a backup. */
export function ConnectionsScreen() {
  const canManage = useCan('manage connections');
  const canRun = useCan('run backups');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<Dialog>(null);
  const connections = useQuery({
    queryKey: ['connections'],
    queryFn: () => unwrap(api().GET('/api/connections')),
  });
  const run = useMutation({
    mutationFn: (connectionId: string) => unwrap(api().POST('/api/backup/run', { body: { connectionId } })),
    onSuccess: ({ backupId }) => navigate(`/backups/${backupId}`),
  });
  const remove = useMutation({
    mutationFn: (id: string) => unwrap(api().DELETE('/api/connections/{id}', { params: { path: { id } } })),
    onSuccess: async () => {
      notifications.show({ color: 'green', message: text.deleted });
      setDialog(null);
      await queryClient.invalidateQueries({ queryKey: ['connections'] });
    },
  });
  return (
    <Stack>
      <Group justify="space-between">
        <ScreenHeading title={text.title} />
        {canManage && <Button onClick={() => setDialog({ kind: 'create' })}>{text.add}</Button>}
      </Group>
      {connections.error && <ErrorAlert error={connections.error} />}
      {run.error && <ErrorAlert error={run.error} />}
      {connections.data?.connections.length === 0 && <Text>{text.none}</Text>}
      {!!connections.data?.connections.length && (
        <Table.ScrollContainer minWidth={640}>
          <Table striped highlightOnHover aria-label={text.tableLabel}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{text.columns.name}</Table.Th>
                <Table.Th>{text.columns.provider}</Table.Th>
                <Table.Th>{text.columns.lastBackup}</Table.Th>
                <Table.Th>{text.columns.actions}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {connections.data.connections.map((connection) => (
                <Table.Tr key={connection.id}>
                  <Table.Td>
                    <div>{connectionName(connection)}</div>
                    <Text size="xs" c="dimmed">
                      {connection.org_url}
                    </Text>
                  </Table.Td>
                  <Table.Td>{providerLabel(connection.provider)}</Table.Td>
                  <Table.Td>
                    <LastBackup connectionId={connection.id} />
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs">
                      {canRun && (
                        <Button
                          size="xs"
                          onClick={() => run.mutate(connection.id)}
                          loading={run.isPending && run.variables === connection.id}
                        >
                          {text.runBackup}
                        </Button>
                      )}
                      <Button
                        size="xs"
                        variant="default"
                        onClick={() => setDialog({ kind: 'schedule', connection })}
                      >
                        {text.schedule}
                      </Button>
                      {canManage && (
                        <>
                          <Button
                            size="xs"
                            variant="default"
                            onClick={() => setDialog({ kind: 'edit', connection })}
                          >
                            {text.edit}
                          </Button>
                          <Button
                            size="xs"
                            color="red"
                            variant="light"
                            onClick={() => setDialog({ kind: 'delete', connection })}
                          >
                            {text.delete}
                          </Button>
                        </>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {dialog?.kind === 'create' && <ConnectionFormModal opened onClose={() => setDialog(null)} />}
      {dialog?.kind === 'edit' && (
        <ConnectionFormModal opened connection={dialog.connection} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'schedule' && (
        <ScheduleModal connection={dialog.connection} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'delete' && (
        <ConfirmModal
          opened
          title={text.deleteTitle}
          confirmLabel={text.deleteConfirm}
          busy={remove.isPending}
          onConfirm={() => remove.mutate(dialog.connection.id)}
          onClose={() => setDialog(null)}
        >
          {text.deleteQuestion(connectionName(dialog.connection))}
          {remove.error && <ErrorAlert error={remove.error} />}
        </ConfirmModal>
      )}
    </Stack>
  );
}

function LastBackup({ connectionId }: { connectionId: string }) {
  const last = useQuery({
    queryKey: ['backups', 'last', connectionId],
    queryFn: () => unwrap(api().GET('/api/backup/list', { params: { query: { connectionId, limit: 1 } } })),
  });
  const backup = last.data?.backups[0];
  if (!backup) return <Text size="sm">{last.isPending ? text.lastBackupLoading : text.noBackupYet}</Text>;
  return (
    <Group gap="xs">
      <Link to={`/backups/${backup.id}`}>
        <Instant iso={backup.started_at} focusable={false} />
      </Link>
      <StatusBadge status={backup.status} />
    </Group>
  );
}
