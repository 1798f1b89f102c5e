/** The header's team switch. */
export const teamSwitcherMessages = {
  label: 'Team',
  option: (team: string, role: string) => `${team} (${role})`,
} as const;
