/** The account screen's text (export, deletion) and the deletion banner's. */
export const accountMessages = {
  title: 'Account',
  export: {
    title: 'Export the team’s data',
    intro:
      'One JSON document with every row the team holds: members, invitations, clients, connections (credentials redacted), schedules, backups, restores, compliance runs, notifications and the audit trail.',
    weeklyRule: 'One export per 7 days for every team.',
    monthlyRule: (plan: string, limit: number | null, used: number) =>
      limit === null
        ? `The ${plan} plan sets no monthly limit; ${used} this month.`
        : `The ${plan} plan allows ${limit} per calendar month (UTC); ${used} of ${limit} used this month.`,
    lastExport: 'Last export:',
    never: 'none yet',
    availableNow: 'An export is possible now.',
    weeklyWait: 'The next export is possible from',
    monthlyWait: 'This month’s exports are used; the next is possible from',
    download: 'Download export',
    downloaded: 'Export downloaded',
    fileName: 'account-export.json',
  },
  deletion: {
    title: 'Delete the account',
    intro:
      'Deletes the team and everything it holds: connections, backups and their snapshots, restores, reports and the audit trail. Deletion starts 30 days after the request; until then the team keeps working and the owner can cancel it.',
    ownerOnly: 'Only the team’s owner can request deletion.',
    request: 'Delete this account',
    confirmTitle: 'Delete the account',
    confirmLabel: 'Request deletion',
    confirmBody: 'Every member is told by e-mail. In 30 days the team and all its data are deleted for good.',
    typed: 'DELETE',
    scheduled: 'Deletion is scheduled for',
  },
  banner: {
    title: 'This team is scheduled for deletion',
    body: 'The team and all its data will be deleted on',
    ownerCancels: 'Only the owner can cancel it.',
    cancel: 'Cancel deletion',
    cancelled: 'Deletion cancelled',
  },
} as const;
