import { Prng } from '@libs/simulators/kit/seed/prng.js';

import { GraphError, notFound } from './graph-error.js';

/** How long a new directory object takes to reach every replica Graph may read or write it on. */
export interface ReplicationLagOptions {
  /**
   * the worst lag of one object, in simulated ms (default 2,000); each object's is `maxMs * u^4`
   * for `u` uniform in [0, 1): mostly short, now and then near the worst case (a fifth of it on
   * average), as the reports below describe seconds usually and minutes at times
   */
  maxMs?: number;
  /**
   * simulated ms per real ms (default 1): 60 makes a two-minute worst case pass in two real
   * seconds, for tests that must not take minutes
   */
  timeScale?: number;
  /** the PRNG's seed, so a run is repeatable (default 1) */
  seed?: number;
}

const GUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * Graph's replication lag after a create: each object a POST creates (its `id`, and an
 * application's `appId`) becomes visible after a lag drawn from a seeded PRNG, bounded by
 * `maxMs` (see ReplicationLagOptions). Until then:
 * - a request whose path names it (a read back, an update, a link under it such as
 *   `/groups/{id}/members/$ref`) answers 404 `Request_ResourceNotFound`;
 * - a request whose body names it (a member's `@odata.id`, a grant's `clientId`, a role
 *   assignment's `principalId`, a policy's `includeGroups`, a service principal's `appId`) answers
 *   400 `Request_BadRequest`: "Not a valid reference update." for app role assignments, else
 *   "...does not exist or one of its queried reference-property objects are not present."
 * Lists are answered as they stand.
 *
 * Sources: "This request might have replication delays for users that were recently created,
 * updated, or deleted" (learn.microsoft.com/graph/api/user-list); "Create user": the object
 * might not be available immediately; field reports of these answers for seconds to minutes
 * after a create: microsoftgraph/msgraph-bicep-types#193 (app role assignment to a new service
 * principal, "Not a valid reference update", "~5 min isn't enough"), KelvinTegelaar/CIPP-API#1955
 * (a service principal right after its application), Azure/azure-cli#2243 (waits up to 3 min).
 */
export class ReplicationLag {
  private readonly visibleAt = new Map<string, number>();
  private readonly prng: Prng;
  private readonly maxMs: number;
  private readonly timeScale: number;

  constructor(
    options: ReplicationLagOptions,
    private readonly now: () => number = Date.now,
  ) {
    this.prng = Prng.seeded(options.seed ?? 1);
    this.maxMs = options.maxMs ?? 2_000;
    this.timeScale = options.timeScale ?? 1;
  }

  /** After a create answered 201 with `body` (Graph JSON): its `id` and `appId` start lagging. */
  created(body: unknown): void {
    if (body === null || typeof body !== 'object') return;
    const { id, appId } = body as { id?: unknown; appId?: unknown };
    const at = this.now() + (this.prng.next() ** 4 * this.maxMs) / this.timeScale;
    for (const name of [id, appId]) if (typeof name === 'string') this.visibleAt.set(name.toLowerCase(), at);
  }

  /**
   * Refuses a request that names an object not visible yet, as Graph does.
   * @param template the route's template, `params` its path parameters, `bodyText` the JSON body
   * @throws GraphError 404 (path) or 400 (body), as above
   */
  check(template: string, params: Readonly<Record<string, string>>, bodyText: string): void {
    if (this.visibleAt.size === 0) return;
    for (const value of Object.values(params)) if (this.pending(value)) throw notFound(value);
    for (const [id] of bodyText.matchAll(GUID))
      if (this.pending(id))
        throw new GraphError(
          400,
          'Request_BadRequest',
          /appRoleAssign/.test(template)
            ? 'Not a valid reference update.'
            : `Resource '${id}' does not exist or one of its queried reference-property objects are not present.`,
        );
  }

  /** Whether `id` names an object created and not replicated yet (forgotten once it is). */
  private pending(id: string): boolean {
    const key = id.toLowerCase();
    const at = this.visibleAt.get(key);
    if (at === undefined) return false;
    if (this.now() < at) return true;
    this.visibleAt.delete(key);
    return false;
  }
}
