import { randomBytes, randomUUID } from 'node:crypto';

// How long Entra keeps audit records ("Microsoft Entra data retention"): 7 days, 30 with P1 or P2.
import { AUDIT_RETENTION_DAYS } from '@libs/providers/entra/entra-audit-log.js';

/**
 * Who made a change, as a `directoryAudit`'s `initiatedBy` says (Graph "auditActivityInitiator
 * resource type"): an app (client credentials) or a user (a delegated token); the other is null.
 */
export interface AuditInitiator {
  app: {
    appId: string;
    displayName: string;
    servicePrincipalId: string;
    servicePrincipalName: string | null;
  } | null;
  user: {
    id: string;
    displayName: string | null;
    userPrincipalName: string;
    ipAddress: string | null;
  } | null;
}

/** One property a change modified ("modifiedProperty resource type"): values are JSON text, as Graph logs them. */
export interface ModifiedProperty {
  displayName: string;
  oldValue: string | null;
  newValue: string | null;
}

/** An object an activity acted on ("targetResource resource type"). */
export interface TargetResource {
  id: string;
  displayName: string | null;
  /** `User`, `Group`, `Policy`, `Application`, `ServicePrincipal`, `Role`, `Directory`... */
  type: string;
  userPrincipalName: string | null;
  groupType?: string | null;
  modifiedProperties: ModifiedProperty[];
}

/**
 * A Microsoft Entra audit record as Graph serves it ("directoryAudit resource type",
 * https://learn.microsoft.com/graph/api/resources/directoryaudit).
 */
export interface DirectoryAudit {
  id: string;
  category: string;
  correlationId: string;
  /** `success`, `failure`, `timeout` */
  result: string;
  resultReason: string;
  /** e.g. `Update conditional access policy`, `Add member to group` */
  activityDisplayName: string;
  /** ISO 8601, UTC */
  activityDateTime: string;
  /** e.g. `Core Directory`, `Conditional Access`, `Authentication Methods`, `PIM` */
  loggedByService: string;
  /** `Add`, `Update`, `Delete`, `Assign`, `Unassign` */
  operationType: string;
  initiatedBy: AuditInitiator;
  targetResources: TargetResource[];
  additionalDetails: Array<{ key: string; value: string }>;
}

/** What a write logs; the log stamps the id, the correlation id, the time and the result. */
export type AuditEntry = Omit<
  DirectoryAudit,
  'id' | 'correlationId' | 'activityDateTime' | 'result' | 'resultReason'
>;

export { AUDIT_RETENTION_DAYS };

const DAY_MS = 86_400_000;

/**
 * The tenant's directory audit log: every write the simulator serves appends one record, in
 * Graph's shape. Records older than the retention window are no longer served, as Entra no longer
 * keeps them. Reusable on its own: nothing here knows routes or HTTP.
 */
export class DirectoryAuditLog {
  readonly #records: DirectoryAudit[] = [];

  constructor(
    /** true while the tenant holds an Entra ID P1 or P2 plan (30 days kept, else 7) */
    private readonly premium: () => boolean,
    private readonly now: () => number = Date.now,
  ) {}

  /** Days the log keeps records now. */
  get retentionDays(): number {
    return this.premium() ? AUDIT_RETENTION_DAYS.premium : AUDIT_RETENTION_DAYS.free;
  }

  /** Appends a successful activity at `at` (default now). @returns the record */
  record(entry: AuditEntry, at: number = this.now()): DirectoryAudit {
    const correlationId = randomUUID();
    const audit: DirectoryAudit = {
      // Graph's ids read `Directory_<correlationId>_<5 letters>_<n>`.
      id: `Directory_${correlationId}_${randomBytes(4).toString('hex').slice(0, 5).toUpperCase()}_${this.#records.length + 1}`,
      category: entry.category,
      correlationId,
      result: 'success',
      resultReason: '',
      activityDisplayName: entry.activityDisplayName,
      activityDateTime: new Date(at).toISOString(),
      loggedByService: entry.loggedByService,
      operationType: entry.operationType,
      initiatedBy: entry.initiatedBy,
      targetResources: entry.targetResources,
      additionalDetails: entry.additionalDetails,
    };
    this.#records.push(audit);
    return audit;
  }

  /** Records the log still holds, newest first (Graph's order), that `keep` accepts. */
  held(keep: (audit: DirectoryAudit) => boolean = () => true): DirectoryAudit[] {
    const oldest = this.now() - this.retentionDays * DAY_MS;
    return this.#records
      .filter((audit) => Date.parse(audit.activityDateTime) >= oldest && keep(audit))
      .reverse();
  }
}
