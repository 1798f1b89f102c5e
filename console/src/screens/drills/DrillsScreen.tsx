import { Button, Group, Select, Stack, Switch, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api, unwrap } from '../../api/client';
import { Panel } from '../../components/Panel';
import { ErrorAlert } from '../../components/ErrorAlert';
import { connectionName, formatInstant } from '../../logic/format';
import { drillsMessages as text } from '../../messages/drills';
import { useCan } from '../../session/me';
import { ScreenHeading } from '../../components/ScreenHeading';

/** The most recent completed backups offered for a drill (one list page). */
const CHOICES = 100;

/**
 * Restore drills (docs/backups.md "Verification drills"): run one on a completed backup (`run
 * backups`), and switch a connection's weekly verification (`manage connections`, its schedule's
 * `verify_weekly`, docs/schedules.md).
 */
export function DrillsScreen() {
  const canRun = useCan('run backups');
  const canManage = useCan('manage connections');
  return (
    <Stack>
      <ScreenHeading title={text.title} intro={text.intro} />
      {canRun && <RunDrill />}
      {canManage && <WeeklyVerification />}
    </Stack>
  );
}

/** Starts a drill of a chosen completed backup (POST /api/backup/{id}/verify) and opens it. */
function RunDrill() {
  const navigate = useNavigate();
  const [backupId, setBackupId] = useState<string | null>(null);
  const backups = useQuery({
    queryKey: ['backups', 'list', { status: 'completed', limit: CHOICES }],
    queryFn: () =>
      unwrap(api().GET('/api/backup/list', { params: { query: { status: 'completed', limit: CHOICES } } })),
  });
  const choices = (backups.data?.backups ?? []).map((backup) => ({
    value: backup.id,
    label: `${connectionName(backup.connection)}, ${formatInstant(backup.started_at)}`,
  }));
  const run = useMutation({
    mutationFn: (id: string) => unwrap(api().POST('/api/backup/{id}/verify', { params: { path: { id } } })),
    onSuccess: ({ drillId }) => navigate(`/drills/${drillId}`),
  });
  return (
    <Panel heading={text.run.heading}>
      <Group align="flex-end">
        <Select
          w={{ base: '100%', sm: 420 }}
          label={text.run.backup}
          placeholder={choices.length ? text.run.backupPlaceholder : text.run.noBackup}
          data={choices}
          value={backupId}
          onChange={setBackupId}
          searchable
        />
        <Button disabled={!backupId} loading={run.isPending} onClick={() => backupId && run.mutate(backupId)}>
          {text.run.button}
        </Button>
      </Group>
      {backups.error && <ErrorAlert error={backups.error} />}
      {run.error && <ErrorAlert error={run.error} />}
    </Panel>
  );
}

/** A connection's `verify_weekly` switch, read from and saved to its schedule. */
function WeeklyVerification() {
  const queryClient = useQueryClient();
  const [connectionId, setConnectionId] = useState<string | null>(null);
  const connections = useQuery({
    queryKey: ['connections'],
    queryFn: () => unwrap(api().GET('/api/connections')),
  });
  const chosen = connections.data?.connections.find((connection) => connection.id === connectionId);
  // The same key as the schedule dialog of Connections, so both show what was saved last.
  const key = ['schedule', connectionId];
  const schedule = useQuery({
    queryKey: key,
    queryFn: () =>
      unwrap(api().GET('/api/connections/{id}/schedule', { params: { path: { id: connectionId! } } })),
    enabled: !!connectionId,
  });
  const save = useMutation({
    mutationFn: (verify_weekly: boolean) =>
      unwrap(
        api().PATCH('/api/connections/{id}/schedule', {
          params: { path: { id: connectionId! } },
          body: { verify_weekly },
        }),
      ),
    onSuccess: ({ schedule: saved }) => {
      queryClient.setQueryData(key, saved);
      if (chosen)
        notifications.show({
          color: 'green',
          message: text.weekly.saved(saved.verify_weekly, connectionName(chosen)),
        });
    },
  });
  return (
    <Panel heading={text.weekly.heading}>
      <Text size="sm">{text.weekly.intro}</Text>
      <Select
        w={{ base: '100%', sm: 420 }}
        label={text.weekly.connection}
        placeholder={text.weekly.connectionPlaceholder}
        data={(connections.data?.connections ?? []).map((connection) => ({
          value: connection.id,
          label: connectionName(connection),
        }))}
        value={connectionId}
        onChange={(value) => {
          setConnectionId(value);
          save.reset();
        }}
      />
      {schedule.data && (
        <Switch
          label={text.weekly.toggle}
          checked={schedule.data.verify_weekly}
          disabled={save.isPending}
          onChange={(event) => save.mutate(event.currentTarget.checked)}
        />
      )}
      {connections.error && <ErrorAlert error={connections.error} />}
      {schedule.error && <ErrorAlert error={schedule.error} />}
      {save.error && <ErrorAlert error={save.error} />}
    </Panel>
  );
}
