import { Group, MultiSelect, Select, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { api, unwrap } from '../api/client';
import { ErrorAlert } from '../components/ErrorAlert';
import { ChangeList } from '../components/ChangeList';
import { SeverityBadge } from '../components/SeverityBadge';
import { filterChanges, groupByType, SEVERITIES, toRows, type Severity } from '../logic/changes';
import { connectionName, formatCount, formatInstant } from '../logic/format';
import { compareMessages as text } from '../messages/compare';
import { ScreenHeading } from '../components/ScreenHeading';

/**
 * Compare two backups (`?from=&to=`), or `?to=` alone: since the previous completed backup of
 * the same connection. Changes grouped by type, filtered by severity and type.
 */
export function CompareScreen() {
  const [params, setParams] = useSearchParams();
  const to = params.get('to');
  const fromParam = params.get('from');
  const [severities, setSeverities] = useState<string[]>([]);
  const [types, setTypes] = useState<string[]>([]);
  const completed = useQuery({
    queryKey: ['backups', 'completed'],
    queryFn: () =>
      unwrap(api().GET('/api/backup/list', { params: { query: { status: 'completed', limit: 200 } } })),
  });
  const backups = completed.data?.backups ?? [];
  const toBackup = backups.find((b) => b.id === to);
  // Newest first, as the API lists them: the previous one is the next older of the same connection.
  const from =
    fromParam ??
    (toBackup &&
      backups.find((b) => b.connection_id === toBackup.connection_id && b.started_at < toBackup.started_at)
        ?.id) ??
    null;
  const diff = useQuery({
    queryKey: ['diff', from, to],
    enabled: !!from && !!to,
    queryFn: () => unwrap(api().POST('/api/diff', { body: { fromBackupId: from!, toBackupId: to! } })),
    staleTime: Infinity,
  });
  const changes = useMemo(() => diff.data?.changes ?? [], [diff.data]);
  const rows = useMemo(
    () =>
      toRows(
        groupByType(
          filterChanges(changes, { severities: new Set(severities as Severity[]), types: new Set(types) }),
        ),
      ),
    [changes, severities, types],
  );
  const options = backups.map((b) => ({
    value: b.id,
    label: text.backupOption(connectionName(b.connection), formatInstant(b.started_at)),
  }));
  const choose = (key: 'from' | 'to') => (value: string | null) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next);
  };
  const summary = diff.data?.summary;
  return (
    <Stack>
      <ScreenHeading title={text.title} />
      <Group align="flex-end">
        <Select
          label={text.from}
          placeholder={text.fromPlaceholder}
          clearable
          data={options}
          value={from}
          onChange={choose('from')}
          w={{ base: '100%', sm: 340 }}
        />
        <Select
          label={text.to}
          data={options}
          value={to}
          onChange={choose('to')}
          w={{ base: '100%', sm: 340 }}
        />
      </Group>
      {completed.error && <ErrorAlert error={completed.error} />}
      {to && !from && completed.data && <Text>{text.firstBackup}</Text>}
      {diff.error && <ErrorAlert error={diff.error} />}
      {summary && (
        <>
          <Group gap="xs" aria-label={text.summaryLabel}>
            <Text fw={600}>{text.total(formatCount(summary.total, text.change))}</Text>
            <Text>
              {text.byAction(summary.byAction.added, summary.byAction.modified, summary.byAction.removed)}
            </Text>
            {summary.recreated?.length ? (
              <Text c="dimmed" data-testid="recreated-unchanged">
                {text.recreatedUnchanged(summary.recreated.length)}
              </Text>
            ) : null}
            {SEVERITIES.map((severity) =>
              summary.bySeverity?.[severity] ? (
                <SeverityBadge key={severity} severity={severity} count={summary.bySeverity[severity]} />
              ) : null,
            )}
          </Group>
          <Group align="flex-end">
            <MultiSelect
              label={text.severity}
              placeholder={text.anySeverity}
              data={[...SEVERITIES]}
              value={severities}
              onChange={setSeverities}
              w={{ base: '100%', sm: 300 }}
            />
            <MultiSelect
              label={text.type}
              placeholder={text.anyType}
              data={Object.keys(summary.byType).sort()}
              value={types}
              onChange={setTypes}
              searchable
              w={{ base: '100%', sm: 300 }}
            />
          </Group>
          {rows.length === 0 ? (
            <Text>{changes.length ? text.noneMatch : text.noChanges}</Text>
          ) : (
            <ChangeList rows={rows} connectionId={summary.to.connectionId} fromBackupId={from!} />
          )}
        </>
      )}
    </Stack>
  );
}
