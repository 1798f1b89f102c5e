/**
 * The scores screen's text (docs/scores.md): resilience with its five factors, readiness with drift, and
 * both over time.
 */
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
  driftIncomplete: (reason: string, countedFrom: string) =>
    `Partial count, from ${countedFrom} only: ${reason}. Changes before then are unknown.`,
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
  history: 'Over time',
  historyHelp:
    'A reading of both scores once a day and after each completed backup, kept as long as your plan keeps backups (400 days at most).',
  period: 'Period',
  periods: [
    { value: '7', label: '7 days' },
    { value: '30', label: '30 days' },
    { value: '90', label: '90 days' },
    { value: '365', label: '1 year' },
  ],
  noHistory: 'No reading in this period yet: the first comes with the next backup or the next daily reading.',
  series: { resilience: 'Resilience', readiness: 'Readiness' },
  historySummary: (
    days: number,
    count: number,
    resilience: { first: number; last: number; min: number; max: number },
    readiness: { first: number; last: number; min: number; max: number },
  ) =>
    `${count === 1 ? '1 reading' : `${count} readings`} over the last ${days} days. ` +
    `Resilience from ${resilience.first} to ${resilience.last} (lowest ${resilience.min}, highest ${resilience.max}); ` +
    `readiness from ${readiness.first} to ${readiness.last} (lowest ${readiness.min}, highest ${readiness.max}).`,
  historyTable: 'Readings',
  showReadings: (count: number) => `Show the ${count === 1 ? 'reading' : `${count} readings`} as a table`,
  historyColumns: { at: 'Read at', resilience: 'Resilience', readiness: 'Readiness' },
} as const;
