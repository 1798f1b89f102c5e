import { Badge, Stack, Table, Text, Title } from '@mantine/core';
import type { Schemas } from '../../api/client';
import { Instant } from '../../components/Instant';
import { countedRows, listedRows } from '../../logic/plan-usage';
import { teamMessages } from '../../messages/team';

const text = teamMessages.plan;

/**
 * The team's plan as `GET /api/me` answers it (`current_team.plan`): its name, since when, a
 * trial's end, and each limit of docs/plans.md beside what the team uses of it.
 */
export function PlanSection({ plan }: { plan: Schemas['PlanSummary'] }) {
  return (
    <Stack component="section" aria-labelledby="team-plan-title" gap="xs">
      <Title order={2} size="h3" id="team-plan-title">
        {text.title}
      </Title>
      <Text size="sm">
        {text.name(plan.name)} {text.since} <Instant iso={plan.since} />.
        {plan.trial_ends_at && (
          <>
            {' '}
            {text.trialEnds} <Instant iso={plan.trial_ends_at} />.
          </>
        )}
      </Text>
      <Table.ScrollContainer minWidth={480}>
        <Table striped aria-label={text.table}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{text.limit}</Table.Th>
              <Table.Th>{text.used}</Table.Th>
              <Table.Th>{text.allowed}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {countedRows(plan).map((row) => (
              <Table.Tr key={row.key}>
                <Table.Td>{text.counted[row.key]}</Table.Td>
                <Table.Td>
                  {row.used.toLocaleString('en')}{' '}
                  {row.reached && (
                    <Badge color="orange" variant="light">
                      {text.reached}
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td>{row.limit === null ? text.noLimit : row.limit.toLocaleString('en')}</Table.Td>
              </Table.Tr>
            ))}
            {listedRows(plan).map((row) => (
              <Table.Tr key={row.key}>
                <Table.Td>{text.listed[row.key]}</Table.Td>
                <Table.Td />
                <Table.Td>{row.allowed === null ? text.all : row.allowed.join(', ')}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
