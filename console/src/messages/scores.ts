/** The scores screen's text (docs/scores.md): resilience with its five factors, readiness with drift. */
export const scoresMessages = {
  title: 'Scores',
  readiness: 'Restore readiness',
  readinessHelp:
    "Each connection's resilience, less what changed in the org since its last backup (a restore would bring back the older configuration). The team's score weights each connection by its last backup's size.",
  teamScore: 'Team readiness',
  noConnection: 'No connection yet: readiness is 0.',
  columns: {
    connection: 'Connection',
    score: 'Readiness',
    lastBackup: 'Last backup',
    drift: 'Changes since',
    checked: 'Org read',
  },
  driftPending: 'Not read yet',
  noDrift: 'No change',
  changes: (count: number) => (count === 1 ? '1 change' : `${count.toLocaleString('en')} changes`),
  driftError: (error: string) => `Last reading failed: ${error}`,
  resilience: 'Resilience',
  resilienceHelp:
    "How well one connection's backups would bring it back: five factors, each 0-100, weighted (the weights sum to 100).",
  connection: 'Connection',
  connectionPlaceholder: 'Choose a connection',
  score: 'Score',
  factorColumns: { factor: 'Factor', weight: 'Weight', value: 'Value', notes: 'Why' },
  factors: {
    recency: 'Recency',
    success_rate: 'Success rate',
    coverage: 'Coverage',
    tested_restores: 'Tested restores',
    protection: 'Protection',
  } as Record<string, string>,
  recommendations: 'Recommendations',
  noRecommendations: 'Every factor is at 100: nothing to do.',
  outOf100: (value: number) => `${value} / 100`,
} as const;
