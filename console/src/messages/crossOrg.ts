/** The restore screen's "into another org" part (docs/restore.md "Into another org"). */
export const crossOrgMessages = {
  target: 'Restore into (optional)',
  targetPlaceholder: "The backup's own org",
  targetHelp: 'Another connection of the same kind; objects are matched by name, login or label.',
  mapping: 'Mapping into the other org',
  domainFrom: 'E-mail and login domain: from',
  domainTo: 'E-mail and login domain: to',
  hostFrom: 'URL host: from',
  hostTo: 'URL host: to',
  groupPrefix: 'Group name prefix',
  groupSuffix: 'Group name suffix',
  title: (orgUrl: string) => `Into ${orgUrl}`,
  tableLabel: 'Objects in the other org',
  shown: (shown: number, total: number) => `${shown} of ${total} objects listed`,
  columns: { type: 'Type', object: 'Object', outcome: 'Outcome', why: 'Why' },
  outcomes: {
    create: 'Create',
    update: 'Update',
    same: 'Same',
    target_only: 'Only in the target (left)',
    left_alone: 'Left alone',
  },
  unmapped: 'References to objects the target will not have (pair them, or restore them too)',
  unmappedItem: (type: string, name: string, reference: string) => `${type} ${name} names ${reference}`,
  cannotMove: 'What will not move',
  cannotMoveItem: (type: string, count: number, why: string, objects: readonly string[]) =>
    `${type} (${count}): ${why}${objects.length ? ` (${objects.join(', ')}${objects.length < count ? ', …' : ''})` : ''}`,
} as const;
