import type { OktaResourceType } from '@libs/providers/okta/okta-resource-types.js';
import type { JWK } from 'jose';

import type { FaultOptions } from '@libs/simulators/kit/http/faults.js';
import type { Route } from '@libs/simulators/kit/http/router.js';
import type { RequestLogSummary } from './http/request-log.js';
import type { RateLimitMode } from './rate-limit/rate-limiter.js';
import type { FixtureSeedReport } from './seed/fixtures/fixture-seeder.js';
import type { OrgContext } from './org-context.js';
import type { OktaOrgFeature } from './http/org-features.js';

export interface SimulatorOptions {
  /** TCP port; 0 (default) picks an ephemeral one. */
  port?: number;
  /** Interface to listen on; default '127.0.0.1' (loopback only). */
  host?: string;
  /** Generator sizes (defaults: 50 users, 10 groups, 5 apps) and PRNG seed (default 1). */
  users?: number;
  groups?: number;
  apps?: number;
  seed?: number;
  /**
   * Seed from recorded Okta traffic (go-vcr or vcrpy cassettes under this folder) instead of the
   * generator: one recorded org, made consistent (seed/fixtures/fixture-seeder.ts).
   */
  fixturesDir?: string;
  /** Which recorded org `fixturesDir` seeds (its subdomain, e.g. `classic-00`); default the most recorded one. */
  fixtureOrg?: string;
  /** 'none' (default): huge limits, never 429; 'enterprise': Okta's Enterprise per-minute limits. */
  rateLimits?: RateLimitMode;
  /** Where the CA and server certificate are written (default: a new temp dir, removed on close). */
  certDir?: string;
  /**
   * Features of Okta's editions this org lacks (http/org-features.ts): their APIs answer 401
   * E0000015, as a real org without them does. Default: none.
   */
  lacksFeatures?: readonly OktaOrgFeature[];
  /** Fault injection (off by default). */
  faults?: FaultOptions;
  /**
   * Routes of another product served on the org's own origin and acting on the org, tried before
   * the org's routes (Okta Workflows: libs/simulators/workflows's startWorkflowsSimulator).
   */
  hostedRoutes?: (org: OrgContext) => Route[];
}

/** One object of the org in the shared record vocabulary (libs/records/resource-record.ts). */
export interface SnapshotRecord {
  id: string;
  name: string | null;
  data: Record<string, unknown>;
}

export interface RunningSimulator {
  /** e.g. https://127.0.0.1:54321 (the certificate is valid for 127.0.0.1, ::1 and localhost). */
  baseUrl: string;
  caCertPath: string;
  caCertPem: string;
  /** For `Authorization: SSWS <token>`. */
  adminToken: string;
  /**
   * Every object the org holds, in the shared vocabulary: type -> records, `data` exactly what
   * a client listing the API receives. Used by tests to compare a backup with the org.
   */
  snapshot(): Record<OktaResourceType, SnapshotRecord[]>;
  requestLog(): RequestLogSummary;
  /**
   * Switches the rate limits from now on (benchmarks set an org up unlimited, then measure under
   * Okta's limits); windows start afresh.
   */
  setRateLimits(mode: RateLimitMode): void;
  /** Injects `faults` from now on (tests enable them for one phase: a restore, not its setup). */
  setFaults(faults: FaultOptions): void;
  /**
   * Registers an API Services app that authenticates with `private_key_jwt` against `publicJwk`
   * and is granted `scopes` (what an admin does in the Admin Console: "Create an API Services
   * app", public key, "Okta API Scopes" grants); returns its client id.
   */
  registerServiceApp(publicJwk: JWK, scopes: readonly string[]): string;
  /**
   * A new API token of the admin user `userId` (Admin Console: Security > API > Tokens): calls
   * made with `Authorization: SSWS <token>` are attributed to that admin in the System Log.
   */
  createApiToken(userId: string): string;
  /** What fixture seeding loaded and skipped (undefined for a generated org). */
  fixtureReport?: FixtureSeedReport;
  close(): Promise<void>;
}
