import { Button, Group, Select, Stack } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { JobProgress } from '../../components/JobProgress';
import { formatInstant } from '../../logic/format';
import { FRAMEWORKS, type Framework } from '../../logic/compliance';
import { complianceMessages as text } from '../../messages/compliance';
import { useCan } from '../../session/me';
import { useConnectionChoices } from '../../api/connection-choices';
import { ComplianceHistory } from './ComplianceHistory';
import { ComplianceReportLink } from './ComplianceReportLink';
import { ComplianceResult } from './ComplianceResult';
import { ScreenHeading } from '../../components/ScreenHeading';

/** Completed backups offered for one connection: the newest page of the list. */
const BACKUP_CHOICES = 100;

/**
 * Compliance (permission `compliance`; docs/compliance.md): a connection, one of its completed
 * backups (default its latest) and a framework, kept in the address so a check can be linked;
 * "Run check" asks `POST /api/compliance/check` (with `Prefer: respond-async`, so a large backup
 * is checked by a job this screen polls). Below: the result, the PDF report and the run history.
 */
export function ComplianceScreen() {
  const [params, setParams] = useSearchParams();
  const connectionId = params.get('connectionId');
  const backupId = params.get('backupId');
  const framework = (params.get('framework') as Framework | null) ?? 'pci_dss';
  const set = (changes: Record<string, string | null>) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          if (value) next.set(key, value);
          else next.delete(key);
        }
        return next;
      },
      { replace: true },
    );
  const { choices, error: choicesError, loaded } = useConnectionChoices();
  const backups = useQuery({
    queryKey: ['backups', 'list', { connectionId, status: 'completed', limit: BACKUP_CHOICES }],
    queryFn: () =>
      unwrap(
        api().GET('/api/backup/list', {
          params: { query: { connectionId: connectionId!, status: 'completed', limit: BACKUP_CHOICES } },
        }),
      ),
    enabled: !!connectionId,
  });
  const queryClient = useQueryClient();
  const check = useMutation({
    mutationFn: () =>
      unwrap(
        api().POST('/api/compliance/check', {
          body: { connectionId: connectionId!, framework, ...(backupId ? { backupId } : {}) },
          headers: { Prefer: 'respond-async' },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['audit-events', 'compliance.checked'] }),
  });
  const queuedId = check.data && 'checkId' in check.data ? check.data.checkId : null;
  const queued = useQuery({
    queryKey: ['compliance-check', queuedId],
    queryFn: () =>
      unwrap(api().GET('/api/compliance/checks/{checkId}', { params: { path: { checkId: queuedId! } } })),
    enabled: !!queuedId,
    refetchInterval: (q) => (['completed', 'failed'].includes(q.state.data?.status ?? '') ? false : 1000),
  });
  const report = check.data && 'findings' in check.data ? check.data : (queued.data?.result ?? null);
  const canExport = useCan('export');
  return (
    <Stack>
      <ScreenHeading title={text.title} intro={text.intro} />
      {choicesError ? <ErrorAlert error={choicesError} /> : null}
      <Group align="flex-end">
        <Select
          label={text.connection}
          placeholder={loaded && choices.length === 0 ? text.noConnection : text.connectionPlaceholder}
          data={choices}
          value={connectionId}
          onChange={(value) => {
            set({ connectionId: value, backupId: null });
            check.reset();
          }}
          w={{ base: '100%', sm: 260 }}
        />
        <Select
          label={text.backup}
          clearable
          placeholder={text.backupPlaceholder}
          disabled={!connectionId}
          data={(backups.data?.backups ?? []).map((backup) => ({
            value: backup.id,
            label: formatInstant(backup.started_at),
          }))}
          value={backupId}
          onChange={(value) => {
            set({ backupId: value });
            check.reset();
          }}
          w={{ base: '100%', sm: 240 }}
        />
        <Select
          label={text.framework}
          allowDeselect={false}
          data={FRAMEWORKS.map((id) => ({ value: id, label: text.frameworks[id] }))}
          value={framework}
          onChange={(value) => {
            set({ framework: value });
            check.reset();
          }}
          w={{ base: '100%', sm: 240 }}
        />
        <Button disabled={!connectionId} loading={check.isPending} onClick={() => check.mutate()}>
          {text.run}
        </Button>
      </Group>
      {backups.error ? <ErrorAlert error={backups.error} /> : null}
      {check.error ? <ErrorAlert error={check.error} /> : null}
      {queued.error ? <ErrorAlert error={queued.error} /> : null}
      {queuedId && queued.data && !report && (
        <Stack gap="xs">
          <JobProgress
            label={text.queuedProgress}
            status={queued.data.status}
            summary={text.queued}
            pct={queued.data.progress_pct}
            message={queued.data.error_message ?? queued.data.progress_message}
          />
        </Stack>
      )}
      {report && <ComplianceResult report={report} />}
      {report && canExport && (
        <ComplianceReportLink connectionId={report.connectionId} framework={framework} />
      )}
      {canExport && <ComplianceHistory connectionId={connectionId} />}
    </Stack>
  );
}
