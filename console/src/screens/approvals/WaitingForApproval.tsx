import { Alert, Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { approvalsMessages } from '../../messages/approvals';

const text = approvalsMessages.waiting;

/**
 * What a request held for approval (a 202 with `pending_approval`) shows: that it waits, and where.
 * The link takes the alert's text colour, underlined: the primary link colour on the orange tint
 * falls under 4.5:1.
 */
export function WaitingForApproval({ approvalId }: { approvalId: string }) {
  return (
    <Alert color="orange" title={text.title} role="status">
      <Text size="sm">{text.body}</Text>
      <Anchor component={Link} c="inherit" underline="always" to={`/approvals/${approvalId}`}>
        {text.open}
      </Anchor>
    </Alert>
  );
}
