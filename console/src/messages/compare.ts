/** The compare screen's text: the two backups, the summary and the filters. */
export const compareMessages = {
  title: 'Compare backups',
  from: 'From (older)',
  fromPlaceholder: 'The previous backup',
  to: 'To (newer)',
  /** A backup in the pickers (a Select option label is a string, so the instant is formatted). */
  backupOption: (connection: string, started: string) => `${connection} · ${started}`,
  firstBackup: "This is the connection's first backup: nothing to compare it with.",
  summaryLabel: 'Summary',
  total: (changes: string) => `${changes}:`,
  byAction: (added: number, modified: number, removed: number) =>
    `${added} added, ${modified} modified, ${removed} removed`,
  severity: 'Severity',
  anySeverity: 'Any severity',
  type: 'Type',
  anyType: 'Any type',
  noChanges: 'No changes.',
  noneMatch: 'No changes match the filters.',
  change: 'change',
  /** objects a restore re-created under new ids, the same otherwise: not changes */
  recreatedUnchanged: (count: number) =>
    count === 1
      ? '1 object re-created by a restore, unchanged'
      : `${count} objects re-created by a restore, unchanged`,
} as const;
