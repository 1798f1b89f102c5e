/** The restore screen's text: the choice, the dry run and the confirmation. */
export const restoreMessages = {
  title: 'Restore',
  backup: 'Backup to restore from',
  /** A backup in the pickers (a Select option label is a string, so the instant is formatted). */
  backupOption: (connection: string, started: string) => `${connection} · ${started}`,
  cannotRestore: 'Your role cannot restore; you can read backups and compare them.',
  mode: 'Mode',
  selective: 'Selected types and objects',
  full: 'Everything in the backup',
  types: 'Types',
  ids: 'Object ids (optional, comma-separated)',
  prune: 'Prune: also delete live objects of these types that the backup lacks',
  previewing: 'Previewing…',
  restore: 'Restore…',
  confirmFull: 'Restore everything',
  confirmSelective: 'Restore the selection',
  confirm: 'Restore now',
  /** The text typed to confirm when the backup's connection is not known yet. */
  typedFallback: 'restore',
  writesTo: (orgUrl: string) =>
    `This writes to ${orgUrl}. A backup of the org is taken first, so this restore can be undone.`,
  pruneWarning: ' Prune deletes the live objects listed in the preview.',
  previewFailed: 'The preview failed',
  preview: {
    title: 'Preview',
    fromBefore: (orgUrl: string) => `From ${orgUrl}, collected `,
    tableLabel: 'Restore preview',
    columns: {
      type: 'Type',
      create: 'Create',
      update: 'Update',
      unchanged: 'Unchanged',
      prune: 'Delete (prune)',
      notes: 'Notes',
    },
    pruned: 'Would be deleted by prune',
    notRestorable: 'Not restored as it was (credential runbook)',
  },
} as const;
