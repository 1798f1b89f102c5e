/** The backups list's text: filters, stats, table, paging and the run control. */
export const backupsMessages = {
  title: 'Backups',
  connection: 'Connection',
  allConnections: 'All connections',
  status: 'Status',
  anyStatus: 'Any status',
  search: 'Search',
  searchPlaceholder: 'Connection, error, resource type',
  stats: {
    backups: 'Backups',
    successRate: 'Success rate',
    failed: 'Failed',
    totalSize: 'Total size',
  },
  noneMatch: 'No backups match.',
  tableLabel: 'Backups',
  columns: {
    started: 'Started',
    connection: 'Connection',
    status: 'Status',
    kind: 'Kind',
    objects: 'Objects',
    size: 'Size',
  },
  runningPct: (pct: number) => `${pct} %`,
  pagination: {
    control: (control: string) => `${control} page`,
    page: (page: number) => `Page ${page}`,
  },
  run: {
    connection: 'Connection to back up',
    choose: 'Choose a connection',
    noConnection: 'No connection yet',
    run: 'Run backup',
  },
} as const;
