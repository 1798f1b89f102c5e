/**
 * The words of the status and severity badges (StatusBadge, SeverityBadge). The API's values are
 * the keys; a value the API adds later shows as it is.
 */
export const badgeMessages = {
  status: {
    completed: 'completed',
    running: 'running',
    pending: 'pending',
    failed: 'failed',
    partial: 'partial',
  } as Record<string, string>,
  severity: {
    critical: 'critical',
    high: 'high',
    medium: 'medium',
    low: 'low',
    info: 'info',
  },
  severityCount: (count: number, severity: string) => `${count} ${severity}`,
} as const;
