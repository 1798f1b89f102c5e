import { Badge } from '@mantine/core';
import type { Schemas } from '../../api/client';
import { approvalsMessages as text } from '../../messages/approvals';

const COLORS: Record<Schemas['Approval']['status'], string> = {
  pending: 'orange',
  approved: 'blue',
  executed: 'green',
  rejected: 'red',
  expired: 'gray',
};

/** A request's status in words and colour. */
export function ApprovalStatusBadge({ status }: { status: Schemas['Approval']['status'] }) {
  return (
    <Badge variant="light" color={COLORS[status]}>
      {text.status[status]}
    </Badge>
  );
}
