/** One backup's screen: progress, counts per type, links onwards and deletion. */
export const backupDetailMessages = {
  loading: 'Loading…',
  title: (connection: string) => `Backup of ${connection}`,
  progress: 'Backup progress',
  /** "manual, started <instant>, api": the instant is rendered between the two parts. */
  summaryBefore: (kind: string) => `${kind}, started `,
  summaryAfter: (triggeredBy: string) => `, ${triggeredBy}`,
  sizeBefore: (size: string) => `Size ${size}, completed `,
  compare: 'Compare with the previous backup',
  restore: 'Restore from this backup',
  undo: 'Undo changes since this backup',
  tableLabel: 'Objects per type',
  columns: { type: 'Type', objects: 'Objects' },
  delete: 'Delete backup',
  deleteTitle: 'Delete backup',
  deleteConfirm: 'Delete backup',
  deleteWarning: 'This backup and its stored objects will be deleted.',
  deleted: 'Backup deleted',
} as const;
