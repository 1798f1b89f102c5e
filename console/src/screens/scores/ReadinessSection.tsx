import { Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Instant } from '../../components/Instant';
import { SeverityBadge } from '../../components/SeverityBadge';
import type { RunTarget } from '../../logic/run-targets';
import { driftBySeverity, isSeverity, type Drift } from '../../logic/scores';
import { scoresMessages as text } from '../../messages/scores';
import { ScrollTable } from './ScrollTable';

/** How often the readiness is read again while the screen is open: the drift job stores a reading every 15 minutes by default. */
const REFRESH_MS = 10_000;

/**
 * `GET /api/scores/readiness`: the team's score, and per connection its readiness, last backup,
 * and the changes in the org since that backup by severity, with when the org was last read.
 * Read again every REFRESH_MS while open, so a new drift reading shows without a reload.
 */
export function ReadinessSection({ choices }: { choices: RunTarget[] }) {
  const readiness = useQuery({
    queryKey: ['scores', 'readiness'],
    queryFn: () => unwrap(api().GET('/api/scores/readiness')),
    refetchInterval: REFRESH_MS,
  });
  const names = new Map(choices.map((choice) => [choice.value, choice.label]));
  return (
    <Stack gap="xs">
      <Title order={2} size="h3">
        {text.readiness}
      </Title>
      <Text size="sm">{text.readinessHelp}</Text>
      {readiness.error ? <ErrorAlert error={readiness.error} /> : null}
      {readiness.data && (
        <>
          <Paper withBorder p="sm" w={{ base: '100%', sm: 240 }}>
            <Text size="xs" c="dimmed">
              {text.teamScore}
            </Text>
            <Text fw={700} size="xl" data-testid="readiness-score">
              {text.outOf100(readiness.data.score)}
            </Text>
          </Paper>
          {readiness.data.perConnection.length === 0 ? (
            <Text>{text.noConnection}</Text>
          ) : (
            <ScrollTable minWidth={720} label={text.readiness}>
              <Table striped aria-label={text.readiness}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{text.columns.connection}</Table.Th>
                    <Table.Th>{text.columns.score}</Table.Th>
                    <Table.Th>{text.columns.lastBackup}</Table.Th>
                    <Table.Th>{text.columns.drift}</Table.Th>
                    <Table.Th>{text.columns.checked}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {readiness.data.perConnection.map((entry) => (
                    <Table.Tr key={entry.connectionId}>
                      <Table.Td>{names.get(entry.connectionId) ?? entry.connectionId}</Table.Td>
                      <Table.Td>{entry.score}</Table.Td>
                      <Table.Td>
                        <Instant iso={entry.lastBackupAt} />
                      </Table.Td>
                      <Table.Td>
                        <DriftCell drift={entry.drift} />
                      </Table.Td>
                      <Table.Td>
                        <Instant iso={entry.drift?.checkedAt} />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollTable>
          )}
        </>
      )}
    </Stack>
  );
}

/** A drift reading: its count and the counts by severity, or why there is none. */
function DriftCell({ drift }: { drift: Drift | null }) {
  if (!drift) return <>{text.driftPending}</>;
  return (
    <Stack gap={4}>
      <Group gap={4}>
        <Text size="sm">{drift.changes === 0 ? text.noDrift : text.changes(drift.changes)}</Text>
        {driftBySeverity(drift.bySeverity).map(({ severity, count }) =>
          isSeverity(severity) ? (
            <SeverityBadge key={severity} severity={severity} count={count} />
          ) : (
            <Text key={severity} size="sm">
              {count} {severity}
            </Text>
          ),
        )}
      </Group>
      {drift.incompleteReason && (
        <Text size="sm" c="orange">
          {text.driftIncomplete(drift.incompleteReason, drift.countedFrom)}
        </Text>
      )}
      {drift.error && (
        <Text size="sm" c="red">
          {text.driftError(drift.error)}
        </Text>
      )}
    </Stack>
  );
}
