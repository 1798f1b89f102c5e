import { Anchor, SegmentedControl, Stack, Table, Text, useMatches } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, unwrap, type Schemas } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Instant } from '../../components/Instant';
import { approvalsMessages as text } from '../../messages/approvals';
import { ApprovalStatusBadge } from './ApprovalStatusBadge';
import { ScreenHeading } from '../../components/ScreenHeading';

type Filter = keyof typeof text.filters;

/**
 * Requests held for a second member's approval (GET /api/approvals, docs/approvals.md): waiting
 * ones first by default, or those decided; each opens its detail, where it is approved or rejected.
 */
export function ApprovalsScreen() {
  const [filter, setFilter] = useState<Filter>('pending');
  const list = useQuery({
    queryKey: ['approvals', filter],
    queryFn: () =>
      unwrap(
        api().GET('/api/approvals', {
          params: { query: { limit: 200, ...(filter === 'all' ? {} : { status: filter }) } },
        }),
      ),
    refetchInterval: 10_000,
  });
  // Six choices side by side need about 520 px: on a phone they stack.
  const orientation = useMatches<'vertical' | 'horizontal'>({ base: 'vertical', sm: 'horizontal' });
  return (
    <Stack>
      <ScreenHeading title={text.title} intro={text.intro} />
      <SegmentedControl
        aria-label={text.filter}
        orientation={orientation}
        value={filter}
        onChange={(value) => setFilter(value as Filter)}
        data={(Object.keys(text.filters) as Filter[]).map((value) => ({ value, label: text.filters[value] }))}
      />
      {list.error && <ErrorAlert error={list.error} />}
      {list.data && list.data.approvals.length === 0 && <Text>{text.none}</Text>}
      {list.data && list.data.approvals.length > 0 && <ApprovalTable approvals={list.data.approvals} />}
    </Stack>
  );
}

function ApprovalTable({ approvals }: { approvals: Array<Schemas['Approval']> }) {
  const c = text.columns;
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped aria-label={text.table}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{c.what}</Table.Th>
            <Table.Th>{c.requester}</Table.Th>
            <Table.Th>{c.created}</Table.Th>
            <Table.Th>{c.expires}</Table.Th>
            <Table.Th>{c.status}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {approvals.map((approval) => (
            <Table.Tr key={approval.id}>
              <Table.Td>
                <Anchor component={Link} to={`/approvals/${approval.id}`}>
                  {text.actions[approval.action]}
                </Anchor>
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {approval.what.summary}
                </Text>
              </Table.Td>
              <Table.Td>
                {text.requester(
                  approval.requester.user_id,
                  approval.requester.client_name,
                  approval.requester.client_id,
                )}
              </Table.Td>
              <Table.Td>
                <Instant iso={approval.created_at} />
              </Table.Td>
              <Table.Td>
                <Instant iso={approval.expires_at} />
              </Table.Td>
              <Table.Td>
                <ApprovalStatusBadge status={approval.status} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
