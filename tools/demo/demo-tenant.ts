import type { DrillResult } from './drill-result.js';
import type { ServiceClient } from './service-client.js';

/** The objects of a simulated tenant as a backup of it must hold, per resource type. */
export type TenantObjects = Record<string, Array<{ id: string; data: Record<string, unknown> }>>;

/**
 * A simulated identity provider tenant the demo backs up (an Okta org, an Entra tenant): where it
 * listens, how a connection to it is made, what it holds, and the restore drill it supports.
 */
export interface DemoTenant {
  /** for people: `Okta simulator`, `Entra simulator` */
  label: string;
  /** what seeded it, for people */
  seededFrom: string;
  baseUrl: string;
  /** the CA the service must trust for its certificate (PROVIDER_CA_FILE) */
  caCertPath: string;
  /** the name given to the connection */
  orgName: string;
  /** the body of POST /api/connections/create: credentials granted every permission a backup needs */
  connectionBody(): Promise<Record<string, string>>;
  /** every object the tenant holds */
  snapshot(): TenantObjects;
  /** damages the tenant, restores it through the API, and checks it (Okta); or says why it is skipped */
  drill(api: ServiceClient, backupId: string, say: (line: string) => void): Promise<DrillResult>;
  close(): Promise<void>;
}

/** A drill that did not run: nothing written, nothing damaged, and why. */
export function skippedDrill(reason: string): DrillResult {
  return {
    status: 'skipped',
    seconds: 0,
    writes: { create: 0, update: 0, delete: 0, failed: 0 },
    restored: false,
    deleted: null,
    changed_user: null,
    reason,
  };
}
