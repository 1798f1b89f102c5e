import { graphResourceUnitsPer10s } from '@libs/providers/entra/graph-rate-limits.js';

import { GraphError } from './graph-error.js';

/**
 * Microsoft Graph's identity and access throttling, from "Microsoft Graph service-specific
 * throttling limits" (`concepts/throttling-limits.md`, "Identity and access service limits"):
 * "Throttling is based on a token bucket algorithm which works by adding individual cost of
 * requests"; requests cost resource units (RU) by path and query options; budgets per
 * application+tenant pair by tenant size, per application across tenants, and write quotas; and
 * "Identity protection and conditional access service limits": 1 request per second per tenant for
 * conditional access policies and named locations, whose 429s "do not return a `Retry-After`
 * header".
 */

/** Base cost of reads the table names (by path template below `/v1.0`); any other read costs 1. */
const READ_COSTS: Readonly<Record<string, number>> = {
  '/applications': 2,
  '/applications/{id}/extensionProperties': 2,
  '/contracts': 3,
  '/domains/{id}/domainNameReferences': 4,
  '/groups/{id}/members': 3,
  '/groups/{id}/transitiveMembers': 5,
  '/oauth2PermissionGrants': 2,
  '/oauth2PermissionGrants/{id}': 2,
  '/servicePrincipals/{id}/appRoleAssignments': 2,
  '/subscribedSkus': 3,
  '/users': 2,
};

/**
 * The resource units a request costs: the table's base cost (1 when not listed, and for every
 * write), less 1 with `$select`, plus 1 with `$expand`, less 1 with `$top` below 20; never below 1.
 * @param template the route's template, `/v1.0/groups/{id}/members`
 */
export function resourceUnitCost(method: string, template: string, url: URL): number {
  if (method !== 'GET') return 1;
  let cost = READ_COSTS[template.replace(/^\/v1\.0/, '')] ?? 1;
  if (url.searchParams.has('$select')) cost -= 1;
  if (url.searchParams.has('$expand')) cost += 1;
  const top = Number(url.searchParams.get('$top') ?? NaN);
  if (Number.isFinite(top) && top < 20) cost -= 1;
  return Math.max(1, cost);
}

/** A token bucket: `capacity` tokens, refilled at `capacity` per `windowMs`. */
class TokenBucket {
  #tokens: number;
  #at: number;

  constructor(
    private capacity: number,
    private readonly windowMs: number,
    now: number,
  ) {
    this.#tokens = capacity;
    this.#at = now;
  }

  /** Changes the size (a tenant that grew), keeping the tokens left. */
  resize(capacity: number): void {
    this.#tokens += capacity - this.capacity;
    this.capacity = capacity;
  }

  /** Takes `cost` tokens, or says how many ms until they are there (nothing taken). */
  take(cost: number, now: number): number {
    this.#tokens = Math.min(this.capacity, this.#tokens + ((now - this.#at) * this.capacity) / this.windowMs);
    this.#at = now;
    if (this.#tokens >= cost) {
      this.#tokens -= cost;
      return 0;
    }
    return ((cost - this.#tokens) * this.windowMs) / this.capacity;
  }
}

/** Throttling answers and the headers of an admitted request. */
export interface Admission {
  headers: Record<string, string>;
}

/**
 * The limits of one simulated tenant, applied to every Graph request when enabled: the
 * application+tenant RU budget (sized by the tenant's users at each request), the application's
 * 150,000 RU per 20 s, writes (3,000 per 2 min 30 s per application+tenant, 18,000 per 5 min per
 * tenant), and 1 request per second per tenant on the conditional access paths. Every admitted
 * request is answered with `x-ms-resource-unit`, throttled or not.
 */
export class GraphThrottle {
  readonly #buckets = new Map<string, TokenBucket>();
  /** Resource units of the requests admitted, and requests refused (429), so far. */
  readonly totals = { resourceUnits: 0, status429: 0 };

  constructor(
    private readonly tenantId: string,
    private readonly tenantUsers: () => number,
    /** whether Graph's limits apply (`setThrottling` changes it) */
    public enabled: boolean,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Counts a request of `appId` and admits it, or refuses it.
   * @throws GraphError 429 `TooManyRequests` with a fractional `Retry-After` (s) and
   *   `x-ms-throttle-scope`/`x-ms-throttle-information`, or without `Retry-After` on the
   *   conditional access paths
   */
  admit(appId: string, method: string, template: string, url: URL): Admission {
    const cost = resourceUnitCost(method, template, url);
    const headers = { 'x-ms-resource-unit': String(cost) };
    if (!this.enabled) {
      this.totals.resourceUnits += cost;
      return { headers };
    }
    const now = this.now();
    const write = method !== 'GET';
    if (template.startsWith('/v1.0/identity/conditionalAccess/')) {
      if (this.bucket(`ca/${this.tenantId}`, 1, 1_000, now).take(1, now) > 0) {
        this.totals.status429++;
        throw new GraphError(429, 'TooManyRequests', 'Too many requests.', undefined, {
          'x-ms-throttle-scope': `Tenant/ReadWrite/${appId}/${this.tenantId}`,
        });
      }
      this.totals.resourceUnits += cost;
      return { headers };
    }
    const pair = this.bucket(`ru/${appId}`, graphResourceUnitsPer10s(this.tenantUsers()), 10_000, now);
    pair.resize(graphResourceUnitsPer10s(this.tenantUsers()));
    const limits: Array<[TokenBucket, number, string]> = [
      [pair, cost, `Tenant_Application/${write ? 'ReadWrite' : 'Read'}/${appId}/${this.tenantId}`],
      [this.bucket(`app/${appId}`, 150_000, 20_000, now), cost, `Application/Read/${appId}/${this.tenantId}`],
    ];
    if (write)
      limits.push(
        [
          this.bucket(`w/${appId}`, 3_000, 150_000, now),
          1,
          `Tenant_Application/Write/${appId}/${this.tenantId}`,
        ],
        [this.bucket('w/tenant', 18_000, 300_000, now), 1, `Tenant/Write/${appId}/${this.tenantId}`],
      );
    for (const [bucket, units, scope] of limits) {
      const waitMs = bucket.take(units, now);
      if (waitMs > 0) {
        this.totals.status429++;
        throw new GraphError(429, 'TooManyRequests', 'Too many requests.', undefined, {
          'Retry-After': (waitMs / 1000).toFixed(3),
          'x-ms-throttle-scope': scope,
          'x-ms-throttle-information': scope.includes('/Write/')
            ? 'WriteLimitExceeded'
            : 'ResourceUnitLimitExceeded',
        });
      }
    }
    this.totals.resourceUnits += cost;
    return { headers };
  }

  private bucket(key: string, capacity: number, windowMs: number, now: number): TokenBucket {
    let bucket = this.#buckets.get(key);
    if (!bucket) this.#buckets.set(key, (bucket = new TokenBucket(capacity, windowMs, now)));
    return bucket;
  }
}
