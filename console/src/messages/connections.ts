/** The connections screen's text (its list, actions and delete confirmation). */
export const connectionsMessages = {
  title: 'Connections',
  add: 'Add connection',
  none: 'No connections yet.',
  tableLabel: 'Connections',
  columns: { name: 'Name', provider: 'Provider', lastBackup: 'Last backup', actions: 'Actions' },
  runBackup: 'Run backup',
  schedule: 'Schedule',
  edit: 'Edit',
  delete: 'Delete',
  deleted: 'Connection deleted',
  deleteTitle: 'Delete connection',
  deleteConfirm: 'Delete connection',
  deleteQuestion: (name: string) => `Delete ${name} and stop its scheduled backups?`,
  lastBackupLoading: '…',
  noBackupYet: 'None yet',
} as const;
