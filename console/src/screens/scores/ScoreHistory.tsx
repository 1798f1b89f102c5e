import { Accordion, Box, SegmentedControl, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useId, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Instant } from '../../components/Instant';
import { seriesRange } from '../../logic/score-history';
import { scoresMessages as text } from '../../messages/scores';
import { CHART_HEIGHT } from './chart-height';
import { ScrollTable } from './ScrollTable';

// The chart library (recharts) is loaded with the chart, so the console's first load stays small
// (bench/console.bench.ts: initial JavaScript under 250 kB gzipped).
const ScoreHistoryChart = lazy(() => import('./ScoreHistoryChart'));

/**
 * `GET /api/scores/history?connectionId=&days=`: one connection's resilience and readiness over the
 * chosen period (7, 30, 90 or 365 days; 30 first) as a line chart on a time axis, 0-100. Its text
 * alternative is a summary sentence the chart's figure is described by, and every reading in a table
 * behind a disclosure. Readiness is dashed, so the two lines differ by more than their colour.
 */
export function ScoreHistory({ connectionId }: { connectionId: string }) {
  const [days, setDays] = useState<string>(text.periods[1].value);
  const summaryId = useId();
  const history = useQuery({
    queryKey: ['scores', 'history', connectionId, days],
    queryFn: () =>
      unwrap(api().GET('/api/scores/history', { params: { query: { connectionId, days: Number(days) } } })),
    // The chart (and an open table) stays while another period loads.
    placeholderData: keepPreviousData,
  });
  const points = history.data?.points ?? [];
  const resilience = seriesRange(points, 'resilience');
  const readiness = seriesRange(points, 'readiness');
  return (
    <Stack gap="xs">
      <Title order={3} size="h4">
        {text.history}
      </Title>
      <Text size="sm">{text.historyHelp}</Text>
      <SegmentedControl
        aria-label={text.period}
        data={[...text.periods]}
        value={days}
        onChange={setDays}
        w={{ base: '100%', sm: 'auto' }}
        style={{ alignSelf: 'flex-start' }}
      />
      {history.error ? <ErrorAlert error={history.error} /> : null}
      {history.data && (!resilience || !readiness) && <Text size="sm">{text.noHistory}</Text>}
      {resilience && readiness && (
        <>
          <Box component="figure" m={0} aria-describedby={summaryId} data-testid="score-history-chart">
            <Suspense fallback={<Skeleton h={CHART_HEIGHT} />}>
              <ScoreHistoryChart points={points} />
            </Suspense>
            <Text component="figcaption" id={summaryId} size="sm" mt="xs">
              {text.historySummary(Number(days), points.length, resilience, readiness)}
            </Text>
          </Box>
          <Accordion variant="contained">
            <Accordion.Item value="readings">
              <Accordion.Control>{text.showReadings(points.length)}</Accordion.Control>
              <Accordion.Panel>
                <ScrollTable minWidth={360} label={text.historyTable}>
                  <Table striped aria-label={text.historyTable}>
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>{text.historyColumns.at}</Table.Th>
                        <Table.Th>{text.historyColumns.resilience}</Table.Th>
                        <Table.Th>{text.historyColumns.readiness}</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {points.map((p) => (
                        <Table.Tr key={p.at} data-testid="reading">
                          <Table.Td>
                            <Instant iso={p.at} />
                          </Table.Td>
                          <Table.Td>{p.resilience}</Table.Td>
                          <Table.Td>{p.readiness}</Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </ScrollTable>
              </Accordion.Panel>
            </Accordion.Item>
          </Accordion>
        </>
      )}
    </Stack>
  );
}
