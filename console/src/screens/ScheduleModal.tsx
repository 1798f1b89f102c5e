import { Button, Group, List, Loader, Modal, NumberInput, Select, Stack, Switch, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { api, unwrap, type Schemas } from '../api/client';
import { ApiError } from '../api/errors';
import { Instant } from '../components/Instant';
import { ErrorAlert } from '../components/ErrorAlert';
import { connectionName } from '../logic/format';
import { useCan, useMe } from '../session/me';

type Schedule = Schemas['Schedule'];
type PlanLimits = Schemas['PlanLimits'];
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
            <Instant iso={run} />
          </List.Item>
        ))}
      </List>
    </div>
  );
}

/** A retention field's value as the API takes it: empty is null, the plan's default. */
function orNull(value: string | number): number | null {
  return value === '' ? null : Number(value);
}

/**
 * The connection's own retention (docs/backups.md "Retention"): days and a number of backups,
 * each empty for the plan's default, with the plan's bound shown; the API judges the bound (402).
 */
function RetentionFields({
  draft,
  limits,
  disabled,
  errors,
  onChange,
}: {
  draft: Schedule;
  limits: PlanLimits | undefined;
  disabled: boolean;
  errors: Record<string, string | undefined>;
  onChange: (next: Schedule) => void;
}) {
  const days = limits?.retention_days;
  const count = limits?.retention_count;
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500}>
        Retention
      </Text>
      <Text size="xs" c="dimmed">
        A backup is deleted only when it is older than the days and not among the newest backups kept. The
        newest completed backup is always kept.
      </Text>
      <NumberInput
        label="Keep backups for (days)"
        placeholder={days == null ? "Plan's default: forever" : `Plan's default: ${days} days`}
        description={
          days == null ? 'Your plan sets no bound.' : `Empty for the plan's default; at most ${days}.`
        }
        min={1}
        allowDecimal={false}
        value={draft.retention_days ?? ''}
        disabled={disabled}
        error={errors.retention_days}
        onChange={(value) => onChange({ ...draft, retention_days: orNull(value) })}
      />
      <NumberInput
        label="Always keep the newest (backups)"
        placeholder="Plan's default: the newest one"
        description={
          count == null ? 'Your plan sets no bound.' : `Empty for the plan's default; at most ${count}.`
        }
        min={1}
        allowDecimal={false}
        value={draft.retention_count ?? ''}
        disabled={disabled}
        error={errors.retention_count}
        onChange={(value) => onChange({ ...draft, retention_count: orNull(value) })}
      />
    </Stack>
  );
}

/** The field a refused save names: `details` of a 400, or a 402's `limit` when it is a schedule field. */
function errorsOf(error: unknown): Record<string, string | undefined> {
  if (!(error instanceof ApiError)) return {};
  const { limit } = error.body;
  if (error.status === 402 && (limit === 'retention_days' || limit === 'retention_count'))
    return { [limit]: error.body.error };
  return error.fieldErrors();
}

/**
 * A connection's backup schedule (docs/schedules.md): frequency, hour, time zone, its next three
 * runs, and the connection's retention.
 */
export function ScheduleModal({
  connection,
  onClose,
}: {
  connection: Schemas['Connection'];
  onClose: () => void;
}) {
  const canManage = useCan('manage connections');
  const limits = useMe().data?.current_team.plan.limits;
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
      const {
        enabled,
        frequency,
        hour,
        timezone,
        day_of_week,
        day_of_month,
        retention_days,
        retention_count,
      } = next;
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
            retention_days,
            retention_count,
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
  const errors = errorsOf(save.error);
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
            <RetentionFields
              draft={draft}
              limits={limits}
              disabled={!canManage}
              errors={errors}
              onChange={setDraft}
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
