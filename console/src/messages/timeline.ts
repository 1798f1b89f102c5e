/** One object's timeline across the connection's backups. */
export const timelineMessages = {
  title: (resourceType: string, resourceId: string) => `Timeline of ${resourceType} ${resourceId}`,
  none: 'No backup holds this object.',
  tableLabel: 'Timeline',
  columns: { when: 'When', change: 'Change', changedBy: 'Changed by', fields: 'Fields' },
} as const;
