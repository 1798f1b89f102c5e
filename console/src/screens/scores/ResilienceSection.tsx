import { List, Paper, Progress, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import type { RunTarget } from '../../logic/run-targets';
import { scoresMessages as text } from '../../messages/scores';
import { ScoreHistory } from './ScoreHistory';
import { ScrollTable } from './ScrollTable';

/**
 * `GET /api/scores/resilience?connectionId=`: one connection's score, its five factors (weight,
 * value 0-100, and the API's note saying why) and a recommendation for each factor below 100.
 * The first connection is chosen until the reader picks another; below, both of its scores over
 * time (ScoreHistory).
 */
export function ResilienceSection({
  connections,
}: {
  connections: { choices: RunTarget[]; error: unknown; loaded: boolean };
}) {
  const [picked, setPicked] = useState<string | null>(null);
  const connectionId = picked ?? connections.choices[0]?.value ?? null;
  const resilience = useQuery({
    queryKey: ['scores', 'resilience', connectionId],
    queryFn: () =>
      unwrap(api().GET('/api/scores/resilience', { params: { query: { connectionId: connectionId! } } })),
    enabled: !!connectionId,
  });
  return (
    <Stack gap="xs">
      <Title order={2} size="h3">
        {text.resilience}
      </Title>
      <Text size="sm">{text.resilienceHelp}</Text>
      {connections.error ? <ErrorAlert error={connections.error} /> : null}
      <Select
        label={text.connection}
        placeholder={text.connectionPlaceholder}
        data={connections.choices}
        value={connectionId}
        onChange={setPicked}
        allowDeselect={false}
        w={{ base: '100%', sm: 300 }}
      />
      {resilience.error ? <ErrorAlert error={resilience.error} /> : null}
      {resilience.data && (
        <>
          <Paper withBorder p="sm" w={{ base: '100%', sm: 240 }}>
            <Text size="xs" c="dimmed">
              {text.score}
            </Text>
            <Text fw={700} size="xl" data-testid="resilience-score">
              {text.outOf100(resilience.data.score)}
            </Text>
          </Paper>
          <ScrollTable minWidth={640} label={text.resilience}>
            <Table striped aria-label={text.resilience}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{text.factorColumns.factor}</Table.Th>
                  <Table.Th>{text.factorColumns.weight}</Table.Th>
                  <Table.Th>{text.factorColumns.value}</Table.Th>
                  <Table.Th>{text.factorColumns.notes}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {resilience.data.factors.map((factor) => {
                  const label = text.factors[factor.name] ?? factor.name;
                  return (
                    <Table.Tr key={factor.name} data-testid="factor">
                      <Table.Td>{label}</Table.Td>
                      <Table.Td>{factor.weight}</Table.Td>
                      <Table.Td miw={120}>
                        <Text size="sm">{factor.value}</Text>
                        <Progress value={factor.value} aria-label={label} size="sm" />
                      </Table.Td>
                      <Table.Td>{factor.notes}</Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </ScrollTable>
          <Title order={3} size="h4">
            {text.recommendations}
          </Title>
          {resilience.data.recommendations.length === 0 ? (
            <Text size="sm">{text.noRecommendations}</Text>
          ) : (
            <List size="sm">
              {resilience.data.recommendations.map((recommendation) => (
                <List.Item key={recommendation}>{recommendation}</List.Item>
              ))}
            </List>
          )}
        </>
      )}
      {connectionId && <ScoreHistory connectionId={connectionId} />}
    </Stack>
  );
}
