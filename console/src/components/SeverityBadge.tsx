import { Badge } from '@mantine/core';
import type { Severity } from '../logic/changes';
import { badgeMessages as text } from '../messages/badges';

const COLORS: Record<Severity, string> = {
  critical: 'red',
  high: 'orange',
  medium: 'yellow',
  low: 'blue',
  info: 'gray',
};

/** A change's severity (docs/severity.md), optionally with a count before it. */
export function SeverityBadge({ severity, count }: { severity: Severity; count?: number }) {
  return (
    <Badge color={COLORS[severity]} variant="light">
      {count === undefined ? text.severity[severity] : text.severityCount(count, text.severity[severity])}
    </Badge>
  );
}
