import { Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Instant } from '../../components/Instant';
import { complianceRuns } from '../../logic/compliance';
import { complianceMessages as text } from '../../messages/compliance';
import { ScrollTable } from '../scores/ScrollTable';

/** Runs listed: the newest page of the trail's `compliance.checked` events. */
const HISTORY_PAGE = 50;

/**
 * The team's compliance check runs, newest first, read from the audit trail
 * (`GET /api/audit-events?action=compliance.checked`, permission `export`): when, framework,
 * score, the backup judged (linked), who asked and whether the answer was computed or the stored
 * result. With a connection chosen, only its runs.
 */
export function ComplianceHistory({ connectionId }: { connectionId: string | null }) {
  const events = useQuery({
    queryKey: ['audit-events', 'compliance.checked'],
    queryFn: () =>
      unwrap(
        api().GET('/api/audit-events', {
          params: { query: { action: 'compliance.checked', limit: HISTORY_PAGE } },
        }),
      ),
  });
  const runs = complianceRuns(events.data?.events ?? []).filter(
    (run) => !connectionId || run.connectionId === connectionId,
  );
  return (
    <Stack gap="xs">
      <Title order={2} size="h3">
        {text.history}
      </Title>
      <Text size="sm">{text.historyHelp}</Text>
      {events.error ? <ErrorAlert error={events.error} /> : null}
      {events.data && runs.length === 0 && <Text>{text.historyEmpty}</Text>}
      {runs.length > 0 && (
        <ScrollTable minWidth={640} label={text.history}>
          <Table striped aria-label={text.history}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{text.historyColumns.when}</Table.Th>
                <Table.Th>{text.historyColumns.framework}</Table.Th>
                <Table.Th>{text.historyColumns.score}</Table.Th>
                <Table.Th>{text.historyColumns.backup}</Table.Th>
                <Table.Th>{text.historyColumns.by}</Table.Th>
                <Table.Th>{text.historyColumns.served}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {runs.map((run) => (
                <Table.Tr key={run.id}>
                  <Table.Td>
                    <Instant iso={run.at} />
                  </Table.Td>
                  <Table.Td>
                    {text.frameworks[run.framework as keyof typeof text.frameworks] ?? run.framework}
                  </Table.Td>
                  <Table.Td>{run.score ?? '—'}</Table.Td>
                  <Table.Td>
                    {run.backupId ? (
                      <Link to={`/backups/${run.backupId}`}>{text.openBackup(run.backupId)}</Link>
                    ) : (
                      '—'
                    )}
                  </Table.Td>
                  <Table.Td>{run.by ?? text.nobody}</Table.Td>
                  <Table.Td>
                    {run.servedFrom ? (text.servedFrom[run.servedFrom] ?? run.servedFrom) : '—'}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      )}
    </Stack>
  );
}
