/**
 * The audit trail's text: filters, the events table, cursor paging and the exports (activity
 * report, audit pack; docs/notifications.md "Audit trail", docs/export.md).
 */
export const auditMessages = {
  title: 'Audit trail',
  filters: {
    from: 'From',
    to: 'To (exclusive)',
    action: 'Action',
    anyAction: 'Any action',
    actor: 'Actor (user id)',
    target: 'Target id',
    perPage: 'Per page',
    clear: 'Clear filters',
  },
  table: {
    label: 'Audit events',
    when: 'When',
    action: 'Action',
    actor: 'Actor',
    target: 'Target',
    outcome: 'Outcome',
    details: 'Details',
    onlyActor: (actor: string) => `Only events by ${actor}`,
    onlyTarget: (target: string) => `Only events on ${target}`,
    system: 'system',
    schedule: 'schedule',
    client: (clientId: string) => `client ${clientId}`,
  },
  empty: 'No events match.',
  pages: {
    label: 'Pages',
    newer: 'Newer events',
    older: 'Older events',
    page: (n: number) => `Page ${n}`,
  },
  exports: {
    title: 'Download',
    intro:
      'An activity report (PDF) or the audit pack (ZIP: backups, restores, compliance findings, audit events and notifications of the period, signed).',
    from: 'First day',
    to: 'Last day',
    report: 'Activity report (PDF)',
    pack: 'Audit pack (ZIP)',
    reportReady: 'Download the activity report',
    reportExpires: 'The link works until',
    packSaved: (filename: string) => `Saved ${filename}`,
  },
} as const;
