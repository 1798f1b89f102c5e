import type { ResourceRecord } from '@libs/records/resource-record.js';

/** Severity of a finding (DESIGN section 4), most severe first. */
export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

/**
 * Result of one control: `manual` when the backup cannot hold the evidence (a setting the
 * provider's API does not expose, a type the backup left out), `not_applicable` when the control
 * has nothing to judge (no password policy to check when every sign-in is passwordless...).
 */
export type FindingStatus = 'pass' | 'fail' | 'warning' | 'not_applicable' | 'manual';

/** A resource a finding names: its record id and label, and the value read from it. */
export interface EvidenceResource {
  id: string;
  name: string | null;
  observed?: unknown;
}

/**
 * What a check saw, so that a reviewer can open the backup and find each value: the type read,
 * the resources involved (at most {@link MAX_EVIDENCE_RESOURCES}, `total` counts them all), the
 * JSON Pointers (RFC 6901) of the fields read inside each record's `data`, and the value
 * observed against the value expected.
 */
export interface CheckOutcome {
  status: FindingStatus;
  resourceType: string;
  resources: EvidenceResource[];
  total: number;
  pointers: string[];
  observed: unknown;
  expected: unknown;
  /** Why the status is what it is, in a sentence, when the values alone do not say. */
  note?: string;
}

/** A finding's evidence: the outcome, anchored to the backup it was read from. */
export interface Evidence extends Omit<CheckOutcome, 'status'> {
  backupId: string;
  /** when the backup started collecting (ISO 8601): the instant the values held */
  collectedAt: string;
}

/** One control of a framework, judged (spec "Compliance finding" plus `check`, `title`, `remediation`). */
export interface Finding {
  control: string;
  status: FindingStatus;
  severity: Severity;
  evidence: Evidence;
  /** provider-qualified check id, e.g. `okta.password.min_length` */
  check: string;
  title: string;
  /** the framework's requirement, with the threshold applied and where it comes from */
  requirement: string;
  remediation: string;
}

/** What a check run sees besides snapshot records: facts our own service holds about backups. */
export interface BackupContext {
  backupId: string;
  /** ISO 8601 */
  collectedAt: string;
  /** the connection's previous completed backup started at (ISO 8601), if any */
  previousBackupAt: string | null;
  /** the connection's last successful restore completed at or before `collectedAt` (ISO 8601), if any */
  lastRestoreAt: string | null;
}

/** Threshold values a framework gives a check (minimum length, days of inactivity...). */
export type CheckParams = Readonly<Record<string, number | boolean | string>>;

/**
 * A check in progress: it is handed every record of the types it reads, type by type in the
 * snapshot's order (dependency order: users before app assignments before admin roles), and
 * then asked for its outcome. It must not keep more than it needs (orgs have 100,000 users).
 */
export interface CheckRun {
  onRecord?(record: ResourceRecord): void;
  /**
   * True when the run, from the parts it has read so far, needs no record of `type` (one of its
   * `reads`): when no run wants a part, the part is not read at all (an Entra tenant without
   * role-assignable groups needs none of its 300,000 group memberships to count role holders).
   */
  skips?(type: string): boolean;
  finish(): CheckOutcome;
}

/**
 * One check, written once per provider and evaluated by each framework with its own thresholds.
 * `key` is the provider-neutral capability frameworks map their controls to
 * (`password.min_length`); `id` names the provider's implementation (`okta.password.min_length`).
 */
export interface Check {
  key: string;
  id: string;
  title: string;
  remediation: string;
  /** resource types read; a backup without one of them gives `manual` */
  reads: readonly string[];
  /**
   * The members of `data` the check reads, by dotted path (`status`, `profile.login`), for some of
   * the types it reads: records of such a type reach it with only those members (the rest is never
   * parsed). A type left out comes whole. Declare them for large parts (users, app assignments,
   * memberships).
   */
  fields?: Readonly<Partial<Record<string, readonly string[]>>>;
  /**
   * The provider permission (OAuth scope, Graph application permission) that collects each type
   * read, for the `manual` note of a backup without it: what to grant for the check to run.
   */
  grants?: Readonly<Partial<Record<string, string>>>;
  start(params: CheckParams, context: BackupContext): CheckRun;
}

/** The records of a backup, read type by type (SnapshotReader's shape). */
export interface RecordSource {
  has(type: string): boolean;
  /**
   * The records of a type in batches (SnapshotReader's frames); with `fields`, each record's
   * `data` holds only those top-level members.
   */
  readBatches(type: string, fields?: readonly string[]): AsyncIterable<readonly ResourceRecord[]>;
  /** types in the order stored */
  readonly types: string[];
}
