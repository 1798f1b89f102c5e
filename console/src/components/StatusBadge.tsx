import { Badge } from '@mantine/core';
import { badgeMessages as text } from '../messages/badges';

const COLORS: Record<string, string> = {
  completed: 'green',
  running: 'blue',
  pending: 'gray',
  failed: 'red',
  partial: 'orange',
};

/** A job's status (backup, restore, preview) as a coloured word. */
export function StatusBadge({ status }: { status: string }) {
  return (
    <Badge color={COLORS[status] ?? 'gray'} variant="light">
      {text.status[status] ?? status}
    </Badge>
  );
}
