/** The undo screen's text (docs/restore.md "Undo since a clean backup"). */
export const undoMessages = {
  title: 'Undo changes since a backup',
  since: (connection: string) => `Since the backup of ${connection}, taken `,
  cannotUndo: 'Your role cannot restore, so it cannot undo changes.',
  actor: 'Changed by',
  anyActor: 'Anyone',
  from: 'Changed at or after (ISO 8601)',
  until: 'Changed at or before (ISO 8601)',
  types: 'Types',
  anyType: 'Every type',
  ids: (ids: string[]) => `Only these objects: ${ids.join(', ')}`,
  fields: (paths: string[]) =>
    `Only ${paths.length === 1 ? 'this field' : 'these fields'}, the object's others left as they are now: ${paths.join(', ')}`,
  previewing: 'Reading the live org…',
  total: (count: number) => `${count} ${count === 1 ? 'change' : 'changes'} to undo`,
  nothing: 'Nothing to undo: the live org matches the backup for this selection.',
  noAttribution: (why: string) => `Who changed what is not known: ${why}`,
  actions: {
    put_back: 'Put back as the backup holds it',
    recreate: 'Re-create (deleted since)',
    delete: 'Delete (added since)',
  },
  groupLabel: (action: string) => `Undo: ${action}`,
  /** A group's heading: the action and how many the undo makes of it. */
  groupTitle: (action: string, count: number) => `${action} (${count})`,
  undo: 'Undo…',
  confirmTitle: 'Undo these changes',
  confirm: 'Undo now',
  writesTo: (orgUrl: string, count: number) =>
    `This writes ${count} ${count === 1 ? 'change' : 'changes'} to ${orgUrl}. A backup of the org is taken first, so the undo can itself be undone.`,
  previewFailed: 'The dry run failed',
} as const;
