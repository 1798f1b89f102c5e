import type { Schemas } from '../api/client';
import { SEVERITIES, type Severity } from './changes';

export type Drift = Schemas['Drift'];

/**
 * A drift reading's counts by severity, worst first, leaving out severities with none
 * (docs/scores.md: `critical`, `high`, `medium`, `low`). Severities the console does not know
 * come last, in the order the API gave them.
 */
export function driftBySeverity(bySeverity: Drift['bySeverity']): Array<{ severity: string; count: number }> {
  const known = SEVERITIES.filter((severity) => (bySeverity[severity] ?? 0) > 0).map((severity) => ({
    severity,
    count: bySeverity[severity],
  }));
  const other = Object.entries(bySeverity)
    .filter(([severity, count]) => !SEVERITIES.includes(severity as Severity) && count > 0)
    .map(([severity, count]) => ({ severity, count }));
  return [...known, ...other];
}

/** Whether `severity` is one the severity badge knows. */
export function isSeverity(severity: string): severity is Severity {
  return SEVERITIES.includes(severity as Severity);
}
