/** One restore's screen: progress, totals, each item's outcome and the id map. */
export const restoreDetailMessages = {
  loading: 'Loading…',
  title: (connection: string) => `Restore to ${connection}`,
  progress: 'Restore progress',
  summaryBefore: (mode: string) => `${mode}, started `,
  preRestore: 'Backup taken before this restore:',
  openPreRestore: 'open the pre-restore backup',
  totals: (t: { create: number; update: number; delete: number; skip: number; failed: number }) =>
    `${t.create} created, ${t.update} updated, ${t.delete} deleted, ${t.skip} unchanged, ${t.failed} failed`,
  tableLabel: 'Restored items',
  columns: {
    type: 'Type',
    object: 'Object',
    action: 'Action',
    outcome: 'Outcome',
    newId: 'New id',
    notes: 'Notes',
  },
  idMap: (oldId: string, newId: string) => `${oldId} → ${newId}`,
  none: '—',
} as const;
