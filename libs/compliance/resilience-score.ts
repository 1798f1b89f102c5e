/** What the resilience score of one connection is computed from (all our own records). */
export interface ResilienceInputs {
  now: Date;
  /** the last completed backup started at; null when none */
  lastBackupAt: Date | null;
  /** the schedule's interval in hours when a schedule is enabled, else null */
  scheduleHours: number | null;
  completedLast30Days: number;
  failedLast30Days: number;
  /** types the last backup captured, and the types the connector supports */
  capturedTypes: readonly string[];
  supportedTypes: readonly string[];
  lastRestoreAt: Date | null;
  /** the last backup's fingerprint is recorded, so every read checks it */
  verified: boolean;
  /** the team plan's retention in days; null keeps backups until deleted */
  retentionDays: number | null;
}

export interface ScoreFactor {
  name: string;
  weight: number;
  value: number;
  notes: string;
}

export interface ResilienceScore {
  score: number;
  factors: ScoreFactor[];
  recommendations: string[];
}

/**
 * Factor weights (sum 100; docs/scores.md): tested restores weigh most, as backup-health scores
 * do (a failed or missing drill drops the score whatever the job success: TheOneStack), then
 * recency against the schedule (Clumio, Bocada), then success rate, coverage and protection.
 */
export const RESILIENCE_WEIGHTS = {
  recency: 25,
  success_rate: 15,
  coverage: 15,
  tested_restores: 30,
  protection: 15,
} as const;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** RPO without an enabled schedule: a day (daily backups, the most common schedule). */
const DEFAULT_RPO_HOURS = 24;
/** CIS Controls v8 11.5: test recovery quarterly. */
const RESTORE_FULL_DAYS = 90;
/** Okta keeps its System Log 90 days: backups kept longer outlive it. */
const PROVIDER_LOG_DAYS = 90;

const round = (value: number) => Math.round(Math.max(0, Math.min(100, value)));

function recency(i: ResilienceInputs): [ScoreFactor, string?] {
  const rpo = i.scheduleHours ?? DEFAULT_RPO_HOURS;
  const source =
    i.scheduleHours === null
      ? 'no enabled schedule: a 24-hour RPO is assumed'
      : `the schedule's RPO is ${rpo} h`;
  if (!i.lastBackupAt)
    return [
      {
        name: 'recency',
        weight: RESILIENCE_WEIGHTS.recency,
        value: 0,
        notes: `No completed backup (${source}).`,
      },
      'No completed backup: run one (POST /api/backup/run) and enable a schedule.',
    ];
  const age = (i.now.getTime() - i.lastBackupAt.getTime()) / HOUR_MS;
  const value = age <= rpo ? 100 : round(100 * (2 - age / rpo));
  const notes = `Last completed backup ${age.toFixed(1)} h ago; ${source}; full value within the RPO, none at twice it.`;
  return [
    { name: 'recency', weight: RESILIENCE_WEIGHTS.recency, value, notes },
    value < 100
      ? `The last backup is ${Math.floor(age)} h old, beyond the ${rpo} h RPO: run a backup now${i.scheduleHours === null ? ' and enable a schedule' : ''}.`
      : undefined,
  ];
}

function successRate(i: ResilienceInputs): [ScoreFactor, string?] {
  const finished = i.completedLast30Days + i.failedLast30Days;
  const value = finished === 0 ? 0 : round((100 * i.completedLast30Days) / finished);
  const notes =
    finished === 0
      ? 'No backup finished in the last 30 days.'
      : `${i.completedLast30Days} of ${finished} backups of the last 30 days completed.`;
  return [
    { name: 'success_rate', weight: RESILIENCE_WEIGHTS.success_rate, value, notes },
    value < 100
      ? finished === 0
        ? 'No backup ran in 30 days: enable a schedule.'
        : `${i.failedLast30Days} backup(s) failed in the last 30 days: read their error_message (GET /api/backup/list?status=failed).`
      : undefined,
  ];
}

function coverage(i: ResilienceInputs): [ScoreFactor, string?] {
  const captured = new Set(i.capturedTypes);
  const missing = i.supportedTypes.filter((type) => !captured.has(type));
  const value =
    i.supportedTypes.length === 0
      ? 0
      : round((100 * (i.supportedTypes.length - missing.length)) / i.supportedTypes.length);
  const notes = `The last backup holds ${i.supportedTypes.length - missing.length} of the ${i.supportedTypes.length} types the connector supports.`;
  return [
    { name: 'coverage', weight: RESILIENCE_WEIGHTS.coverage, value, notes },
    missing.length > 0
      ? `The last backup leaves out ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ` and ${missing.length - 5} more` : ''}: run a full backup without \`include\`, and grant the read scopes docs/resource-types.md lists.`
      : undefined,
  ];
}

function testedRestores(i: ResilienceInputs): [ScoreFactor, string?] {
  if (!i.lastRestoreAt)
    return [
      {
        name: 'tested_restores',
        weight: RESILIENCE_WEIGHTS.tested_restores,
        value: 0,
        notes: 'No restore of this connection has completed.',
      },
      'No restore was ever tested: run a verification drill (a restore into a sandbox org, or `npm run demo`).',
    ];
  const days = Math.floor((i.now.getTime() - i.lastRestoreAt.getTime()) / DAY_MS);
  const value = days <= RESTORE_FULL_DAYS ? 100 : days <= 2 * RESTORE_FULL_DAYS ? 50 : 0;
  return [
    {
      name: 'tested_restores',
      weight: RESILIENCE_WEIGHTS.tested_restores,
      value,
      notes: `Last successful restore ${days} days ago; full value within 90 days (CIS Controls 11.5), half within 180.`,
    },
    value < 100 ? `No restore was tested in ${days} days: run a verification drill.` : undefined,
  ];
}

function protection(i: ResilienceInputs): [ScoreFactor, string?] {
  const longRetention = i.retentionDays === null || i.retentionDays > PROVIDER_LOG_DAYS;
  const value = 40 + (i.verified ? 30 : 0) + (longRetention ? 30 : 0);
  const retention = i.retentionDays === null ? 'kept until deleted' : `kept ${i.retentionDays} days`;
  const notes = `Encrypted (AES-256-GCM, 40); ${i.verified ? 'fingerprint recorded and checked on every read (30)' : 'no verified backup (0)'}; ${retention}, ${longRetention ? 'beyond' : 'not beyond'} Okta's 90-day log (${longRetention ? 30 : 0}).`;
  return [
    { name: 'protection', weight: RESILIENCE_WEIGHTS.protection, value, notes },
    !longRetention
      ? `Backups are kept ${i.retentionDays} days, no longer than Okta's own 90-day log: choose a plan with longer retention.`
      : !i.verified
        ? 'No verified backup: run a backup.'
        : undefined,
  ];
}

/**
 * A connection's resilience, 0 to 100: five factors, each 0 to 100 with a note saying why,
 * weighted by RESILIENCE_WEIGHTS, and a concrete recommendation for each factor below 100.
 */
export function resilienceScore(inputs: ResilienceInputs): ResilienceScore {
  const judged = [
    recency(inputs),
    successRate(inputs),
    coverage(inputs),
    testedRestores(inputs),
    protection(inputs),
  ];
  const factors = judged.map(([factor]) => factor);
  const score = Math.round(factors.reduce((sum, f) => sum + f.weight * f.value, 0) / 100);
  return { score, factors, recommendations: judged.flatMap(([, advice]) => (advice ? [advice] : [])) };
}

/** Drift found since a connection's last backup (the drift job's record). */
export interface Drift {
  changes: number;
  bySeverity: Record<string, number>;
  /** ISO 8601 */
  checkedAt: string;
}

/** Points a drifted change takes off readiness, by severity; at most 50 in all. */
const DRIFT_POINTS: Readonly<Record<string, number>> = { critical: 10, high: 5, medium: 2, low: 1 };

/**
 * Readiness of one connection: its resilience less what drifted since its last backup (a
 * restore would bring back an older configuration): resilience × (1 − penalty/100), the penalty
 * the severity points of the changes, at most 50.
 */
export function readinessScore(resilience: number, drift: Drift | null): number {
  if (!drift) return resilience;
  const points = Object.entries(drift.bySeverity).reduce(
    (sum, [severity, n]) => sum + (DRIFT_POINTS[severity] ?? 0) * n,
    0,
  );
  return Math.round((resilience * (100 - Math.min(50, points))) / 100);
}
