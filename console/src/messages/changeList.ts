/** The compare screen's list of changes. */
export const changeListMessages = {
  label: 'Changes',
  change: 'change',
  timeline: 'Timeline',
  timelineOf: (label: string) => `Timeline: ${label}`,
  restore: 'Restore as it was',
  restoreOf: (label: string) => `Restore as it was: ${label}`,
  revert: 'Revert',
  revertOf: (label: string) => `Revert this change: ${label}`,
  moreFields: (count: number) => `and ${count} more fields`,
  changedBy: (who: string) => `by ${who}`,
  byThisService: 'this service (a restore)',
  changedFrom: (from: string) => `from ${from}`,
  noRecord: "who: the provider's log held no record",
  notAvailable: 'who: not available for this provider',
} as const;
