/**
 * The signed-in frame's text (header and navigation). Every screen keeps its user-facing text in
 * one object like this, under console/src/messages/: a translation supplies the same shape.
 */
export const layoutMessages = {
  productName: 'idp-backup',
  sections: 'Sections',
  openNavigation: 'Open navigation',
  darkTheme: 'Dark theme',
  signOut: 'Sign out',
  nav: {
    connections: 'Connections',
    backups: 'Backups',
    compare: 'Compare',
    restore: 'Restore',
    notifications: 'Notifications',
    audit: 'Audit trail',
    compliance: 'Compliance',
    scores: 'Scores',
    team: 'Team',
    account: 'Account',
    drills: 'Drills',
    workflows: 'Okta Workflows',
    approvals: 'Approvals',
  },
} as const;
