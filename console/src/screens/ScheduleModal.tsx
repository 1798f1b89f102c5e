import {
  Button,
  Group,
  List,
  Loader,
  Modal,
  NumberInput,
  Select,
  Stack,
  Switch,
  Text,
  Tooltip,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { api, unwrap, type Schemas } from '../api/client';
import { ApiError } from '../api/errors';
import { ErrorAlert } from '../components/ErrorAlert';
import { connectionName, formatInstant } from '../logic/format';
import { useCan } from '../session/me';

type Schedule = Schemas['Schedule'];
const TIME_ZONES = Intl.supportedValuesOf('timeZone');

/** The zone list with the schedule's own zone in it: browsers list canonical zones only, not `UTC`. */
function withZone(zones: string[], zone: string): string[] {
  return zones.includes(zone) ? zones : [zone, ...zones];
}

/**
 * The schedule's next runs (the API computes them in the schedule's time zone) shown in the
 * reader's own zone, each with its UTC instant on hover or focus.
 */
function NextRuns({ runs }: { runs: string[] }) {
  const readerZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return (
    <div>
      <Text size="sm" id="next-runs-label">
        Next runs (in your time zone, {readerZone})
      </Text>
      <List size="sm" aria-labelledby="next-runs-label">
        {runs.map((run) => (
          <List.Item key={run}>
            <Tooltip label={`${run} (UTC)`}>
              <time dateTime={run} tabIndex={0}>
                {formatInstant(run)}
              </time>
            </Tooltip>
          </List.Item>
        ))}
      </List>
    </div>
  );
}

/** A connection's backup schedule (docs/schedules.md): frequency, hour, time zone, and its next three runs. */
export function ScheduleModal({
  connection,
  onClose,
}: {
  connection: Schemas['Connection'];
  onClose: () => void;
}) {
  const canManage = useCan('manage connections');
  const queryClient = useQueryClient();
  const key = ['schedule', connection.id];
  const schedule = useQuery({
    queryKey: key,
    queryFn: () =>
      unwrap(api().GET('/api/connections/{id}/schedule', { params: { path: { id: connection.id } } })),
  });
  const [draft, setDraft] = useState<Schedule | null>(null);
  useEffect(() => {
    if (schedule.data && !draft) setDraft(schedule.data);
  }, [schedule.data, draft]);
  const save = useMutation({
    mutationFn: (next: Schedule) => {
      const { enabled, frequency, hour, timezone, day_of_week, day_of_month } = next;
      return unwrap(
        api().PATCH('/api/connections/{id}/schedule', {
          params: { path: { id: connection.id } },
          body: {
            enabled,
            frequency,
            hour,
            timezone,
            ...(frequency === 'weekly' ? { day_of_week: day_of_week ?? 1 } : {}),
            ...(frequency === 'monthly' ? { day_of_month: day_of_month ?? 1 } : {}),
          },
        }),
      );
    },
    onSuccess: ({ schedule: saved }) => {
      queryClient.setQueryData(key, saved);
      setDraft(saved);
      notifications.show({ color: 'green', message: 'Schedule saved' });
    },
  });
  const errors = save.error instanceof ApiError ? save.error.fieldErrors() : {};
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (draft) save.mutate(draft);
  };
  const current = schedule.data;
  return (
    <Modal opened onClose={onClose} title={`Schedule of ${connectionName(connection)}`}>
      {schedule.error && <ErrorAlert error={schedule.error} />}
      {!draft ? (
        !schedule.error && <Loader aria-label="Loading" />
      ) : (
        <form onSubmit={submit}>
          <Stack>
            <Switch
              label="Scheduled backups"
              checked={draft.enabled}
              disabled={!canManage}
              onChange={(event) => setDraft({ ...draft, enabled: event.currentTarget.checked })}
            />
            <Select
              label="Frequency"
              data={['hourly', 'daily', 'weekly', 'monthly']}
              value={draft.frequency}
              disabled={!canManage}
              error={errors.frequency}
              onChange={(value) => value && setDraft({ ...draft, frequency: value as Schedule['frequency'] })}
            />
            <NumberInput
              label="Hour (0–23, in the time zone)"
              min={0}
              max={23}
              value={draft.hour}
              disabled={!canManage}
              error={errors.hour}
              onChange={(value) => setDraft({ ...draft, hour: Number(value) })}
            />
            <Select
              label="Time zone"
              searchable
              data={withZone(TIME_ZONES, draft.timezone)}
              value={draft.timezone}
              disabled={!canManage}
              error={errors.timezone}
              onChange={(value) => value && setDraft({ ...draft, timezone: value })}
            />
            {current?.enabled ? (
              <NextRuns runs={current.next_runs} />
            ) : (
              <Text size="sm">Next runs: none (disabled)</Text>
            )}
            {save.error && <ErrorAlert error={save.error} />}
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                Close
              </Button>
              {canManage && (
                <Button type="submit" loading={save.isPending}>
                  Save schedule
                </Button>
              )}
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
