import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { FaultInjector, type FaultOptions } from '@libs/simulators/kit/http/faults.js';
import { ReplicationLag, type ReplicationLagOptions } from './replication-lag.js';
import { Router } from '@libs/simulators/kit/http/router.js';
import { issueTlsMaterial } from '@libs/simulators/kit/tls/certificates.js';
import { listenHttps } from '@libs/simulators/kit/tls/https-listener.js';

import { AppRegistrations } from './app-registrations.js';
import { auditRoutes } from './audit.routes.js';
import { DirectoryAuditLog } from './directory-audit.js';
import { GraphError } from './graph-error.js';
import { directoryRoutes } from './directory.routes.js';
import { type GraphContext, graphRoutes, tokenRoute } from './graph.routes.js';
import { type Answer, BATCH_TEMPLATE, batchRoute } from './batch.routes.js';
import { GraphThrottle } from './resource-units.js';
import { readGraphTypes } from './seed/csdl-types.js';
import { dependencyRoutes } from './dependency.routes.js';
import { activate, reconcileActiveGrants } from './pim.js';
import { DEFAULT_TENANT_SIZES, generateTenant } from './seed/generate-tenant.js';
import { readScubaGearExport, seedFromScubaGear } from './seed/scubagear-seeder.js';
import { normalizeConditionalAccessPolicy } from './conditional-access-normalization.js';
import { snapshotOf, type EntraSnapshot } from './snapshot.js';
import { TenantState, type GraphObject } from './tenant-state.js';
import { replaceSubscribedSkus, subscribedSkuRoutes } from './licences.js';
import { seedPrivilegedBuiltInRoles } from './seed/built-in-roles.js';
import { WriteAuditor } from './write-auditor.js';

export interface EntraSimulatorOptions {
  /** TCP port; 0 (default) picks an ephemeral one. */
  port?: number;
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  /**
   * A ScubaGear ProviderSettingsExport.json to seed the real tenant from (read at start, never
   * copied); without it the tenant is a generated `contoso.onmicrosoft.com`.
   */
  scubaGearFile?: string;
  /**
   * Graph v1.0's CSDL: with it, members of the export that v1.0 does not declare (it was read
   * through beta) are left out, as Graph v1.0 answers.
   */
  csdlFile?: string;
  /** Generated users, groups and named locations added either way (defaults: 20 users, 5 groups, seed 1). */
  users?: number;
  groups?: number;
  /** Generated app registrations with their service principals and owners (default 2). */
  applications?: number;
  seed?: number;
  /**
   * Applies Graph's identity and access throttling (resource-units.ts): resource-unit budgets by
   * tenant size, write quotas, and the conditional access paths' 1 request per second. Off by
   * default; `x-ms-resource-unit` is sent either way.
   */
  throttling?: boolean;
  /**
   * Graph requests answered 503 `serviceNotAvailable` instead, at `errorRate` (0 to 1, drawn from
   * a PRNG seeded with `seed`, so a run is repeatable): for resilience tests. Requests of a
   * `$batch` draw each on their own.
   */
  faults?: Pick<FaultOptions, 'errorRate' | 'seed'>;
  /**
   * Graph's replication lag after a create (replication-lag.ts): a new object is not found, and
   * links to it are refused, until its drawn lag has passed. Off by default.
   */
  replicationLag?: ReplicationLagOptions;
  /**
   * The tenant's subscriptions (`subscribedSkus`, licences.ts), replacing those the seed gives
   * (the real tenant's, the generator's): a tenant without a licence a restore needs.
   */
  subscribedSkus?: GraphObject[];
}

/** A running simulated Entra tenant. */
export interface RunningEntraSimulator {
  /** e.g. https://127.0.0.1:54321: it serves both the identity platform's and Graph's paths. */
  baseUrl: string;
  caCertPath: string;
  caCertPem: string;
  /** The tenant's GUID. */
  tenantId: string;
  /**
   * Registers an app with a client secret and these application permissions consented, and
   * `certificatePem` (a PEM X.509 certificate) uploaded as a certificate credential.
   */
  registerApp(roles: readonly string[], certificatePem?: string): { clientId: string; clientSecret: string };
  /**
   * Replaces the application permissions consented to an app `registerApp` made, as an admin
   * grants or revokes admin consent ("Grant tenant-wide admin consent to an application"): tokens
   * issued from now on carry exactly `roles`.
   */
  grantRoles(clientId: string, roles: readonly string[]): void;
  /** Every object of the tenant as a backup records it, per resource type. */
  snapshot(): EntraSnapshot;
  /**
   * Drops the tenant's change history: every delta link issued so far answers 410, as when Graph
   * no longer has a sync state ("delta query overview", "Synchronization reset").
   */
  resetDeltaState(): void;
  /**
   * A native recovery (Microsoft Entra Backup and Recovery): sets properties on users or groups
   * without any delta record, and lists its job at `/directory/recovery/jobs`.
   */
  recoverNatively(
    changes: ReadonlyArray<{
      collection: 'users' | 'groups';
      id: string;
      properties: Record<string, unknown>;
    }>,
  ): void;
  /**
   * Turns Graph's published limits on or off from now on (`throttling` at start): a bench sets a
   * tenant up without them, then measures a run with them. Buckets keep what they hold.
   */
  setThrottling(enabled: boolean): void;
  /**
   * The enterprise application (service principal) of an app `registerApp` made, as the admin
   * center creates one with each app registration: its object id, which a role assignment names
   * to give the app a directory role (privileged-targets.ts). Made at the first call.
   */
  servicePrincipalOf(clientId: string): string;
  /** Resource units of the Graph requests admitted, and the requests throttled (429), so far. */
  throttleTotals(): { resourceUnits: number; status429: number };
  /** Requests answered, by `METHOD template`. */
  requestCounts(): Record<string, number>;
  /**
   * What a user does in PIM, which an app cannot (`selfActivate` takes a signed-in user): activates
   * the principal's eligibility for the role at the directory's scope for `hours`, an `Activated`
   * assignment schedule and a role assignment (pim.ts).
   * @returns the activation's schedule
   * @throws Error when the principal is not eligible
   */
  activate(principalId: string, roleDefinitionId: string, hours: number): Record<string, unknown>;
  /**
   * From now on, the writes of app `clientId` are made "as" the tenant's user `userPrincipalName`
   * (as through a delegated token that user signed in for, from `ipAddress`): the directory audit
   * names the user as their initiator, e.g. an attacker with a stolen session. Null goes back to
   * app-only calls.
   * @throws Error when the tenant has no such user or no such app
   */
  actAs(clientId: string, userPrincipalName: string | null, ipAddress?: string): void;
  /** The tenant's directory audit log (`/auditLogs/directoryAudits`), for specs. */
  readonly audits: DirectoryAuditLog;
  close(): Promise<void>;
}

/**
 * Starts an HTTPS server that behaves like a Microsoft Entra tenant seen through the identity
 * platform's token endpoint and Microsoft Graph v1.0 (graph.routes.ts), on loopback with a CA of
 * its own (shared with the Okta simulator: tls/certificates.ts). Seeds the real tenant of a
 * ScubaGear export when given, then generated users, groups, members and named locations.
 */
export async function startEntraSimulator(
  options: EntraSimulatorOptions = {},
): Promise<RunningEntraSimulator> {
  const host = options.host ?? '127.0.0.1';
  const certDir = await mkdtemp(join(tmpdir(), 'entra-simulator-'));
  try {
    const source = options.scubaGearFile ? await readScubaGearExport(options.scubaGearFile) : undefined;
    const state = new TenantState(source?.tenant_details[0].TenantId ?? randomUUID());
    if (source)
      seedFromScubaGear(state, source, options.csdlFile ? await readGraphTypes(options.csdlFile) : undefined);
    else seedContoso(state);
    seedPrivilegedBuiltInRoles(state);
    generateTenant(state, {
      users: options.users ?? DEFAULT_TENANT_SIZES.users,
      groups: options.groups ?? DEFAULT_TENANT_SIZES.groups,
      applications: options.applications,
      seed: options.seed ?? DEFAULT_TENANT_SIZES.seed,
    });
    reconcileActiveGrants(state);
    if (options.subscribedSkus) replaceSubscribedSkus(state, options.subscribedSkus);
    // Seeded policies read as written ones do: Graph answers every policy in one shape.
    const strengths = state.collection('authenticationStrengthPolicies');
    for (const policy of state.collection('conditionalAccessPolicies').values())
      state.put('conditionalAccessPolicies', normalizeConditionalAccessPolicy(policy, strengths));
    const tls = await issueTlsMaterial(certDir);
    const { server, baseUrl } = await listenHttps(tls, host, options.port ?? 0);
    const graph: GraphContext = { state, apps: new AppRegistrations(state.tenantId), baseUrl };
    const audits = new DirectoryAuditLog(() => hasEntraPremium(state));
    const auditor = new WriteAuditor(state, graph.apps, audits);
    const throttle = new GraphThrottle(
      state.tenantId,
      () => state.collection('users').size,
      options.throttling ?? false,
    );
    const router = new Router();
    const counts: Record<string, number> = {};
    const lag = options.replicationLag ? new ReplicationLag(options.replicationLag) : undefined;
    const answer = answerer(router, {
      graph,
      throttle,
      counts,
      faults: new FaultInjector(options.faults),
      auditor,
      lag,
    });
    router.add(
      tokenRoute(graph),
      ...graphRoutes(graph),
      ...directoryRoutes(graph),
      ...dependencyRoutes(graph),
      ...subscribedSkuRoutes(graph),
      ...auditRoutes(graph, audits),
      batchRoute(graph, answer),
    );
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      handle(answer, baseUrl, req, res).catch((error: unknown) => {
        console.error('[entra-simulator] internal error', error);
        res.destroy();
      });
    });
    return {
      baseUrl,
      caCertPath: tls.caCertPath,
      caCertPem: tls.caCertPem,
      tenantId: state.tenantId,
      registerApp: (roles, certificatePem) => graph.apps.register(roles, certificatePem),
      grantRoles: (clientId, roles) => graph.apps.grant(clientId, roles),
      snapshot: () => snapshotOf(state),
      resetDeltaState: () => state.changes.reset(),
      recoverNatively: (changes) => void state.recoverNatively(changes),
      setThrottling: (enabled) => {
        throttle.enabled = enabled;
      },
      throttleTotals: () => ({ ...throttle.totals }),
      servicePrincipalOf: (clientId) => {
        const sps = state.collection('servicePrincipals');
        const found = [...sps.values()].find((sp) => sp.appId === clientId);
        if (found) return found.id;
        const id = randomUUID();
        state.put('servicePrincipals', {
          id,
          appId: clientId,
          displayName: 'idp-backup',
          servicePrincipalType: 'Application',
          accountEnabled: true,
          appOwnerOrganizationId: state.tenantId,
          servicePrincipalNames: [clientId],
        });
        return id;
      },
      requestCounts: () => ({ ...counts }),
      activate: (principalId, roleDefinitionId, hours) =>
        activate(state, principalId, roleDefinitionId, hours),
      actAs: (clientId, userPrincipalName, ipAddress = '203.0.113.10') => {
        if (userPrincipalName === null) return graph.apps.actAs(clientId, null);
        const user = [...state.collection('users').values()].find(
          (candidate) => candidate.userPrincipalName === userPrincipalName,
        );
        if (!user) throw new Error(`the tenant has no user ${userPrincipalName}`);
        const displayName = typeof user.displayName === 'string' ? user.displayName : null;
        graph.apps.actAs(clientId, { id: user.id, displayName, userPrincipalName, ipAddress });
      },
      audits,
      close: async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await rm(certDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(certDir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The throttle's decision for a Graph request of a verified app (its headers, `x-ms-resource-unit`);
 * none for the token endpoint or a request without a valid token (its route answers 401).
 * @throws GraphError 429 when throttled
 */
function graphAdmission(
  graph: GraphContext,
  throttle: GraphThrottle,
  method: string,
  template: string,
  url: URL,
  authorization: string | undefined,
): Record<string, string> {
  // A batch's requests are each admitted on their own (batch.routes.ts), not the batch.
  if (!template.startsWith('/v1.0/') || template === BATCH_TEMPLATE) return {};
  let appId: string;
  try {
    appId = graph.apps.verify(authorization).appId;
  } catch {
    return {};
  }
  return throttle.admit(appId, method, template, url).headers;
}

/** The singletons and the domain a tenant always has, for a generated tenant. */
function seedContoso(state: TenantState): void {
  state.put('domains', {
    id: 'contoso.onmicrosoft.com',
    authenticationType: 'Managed',
    isDefault: true,
    isInitial: true,
    isRoot: true,
    isVerified: true,
    supportedServices: ['Email'],
  });
  state.put('organization', {
    id: state.tenantId,
    displayName: 'Contoso',
    verifiedDomains: [{ name: 'contoso.onmicrosoft.com', isDefault: true, isInitial: true, type: 'Managed' }],
  });
  state.put('authorizationPolicy', {
    id: 'authorizationPolicy',
    displayName: 'Authorization Policy',
    allowInvitesFrom: 'everyone',
    defaultUserRolePermissions: { allowedToCreateApps: true },
  });
  state.put('authenticationMethodsPolicy', {
    id: 'authenticationMethodsPolicy',
    displayName: 'Authentication Methods Policy',
    policyVersion: '1.5',
    // As authenticationmethodspolicy-get's example answers them: each configuration inline.
    authenticationMethodConfigurations: [
      {
        '@odata.type': '#microsoft.graph.fido2AuthenticationMethodConfiguration',
        id: 'Fido2',
        state: 'enabled',
        isSelfServiceRegistrationAllowed: true,
        isAttestationEnforced: true,
        keyRestrictions: { isEnforced: false, enforcementType: 'block', aaGuids: [] },
        excludeTargets: [],
        includeTargets: [{ targetType: 'group', id: 'all_users', isRegistrationRequired: false }],
      },
      {
        '@odata.type': '#microsoft.graph.microsoftAuthenticatorAuthenticationMethodConfiguration',
        id: 'MicrosoftAuthenticator',
        state: 'enabled',
        isSoftwareOathEnabled: false,
        excludeTargets: [],
        includeTargets: [{ targetType: 'group', id: 'all_users', isRegistrationRequired: false }],
      },
    ],
  });
}

/** What answering a request uses besides the router. */
interface AnswerParts {
  graph: GraphContext;
  throttle: GraphThrottle;
  /** requests answered, by `METHOD template` */
  counts: Record<string, number>;
  faults: FaultInjector;
  auditor: WriteAuditor;
  /** Graph's replication lag, when the simulator models it (replication-lag.ts) */
  lag?: ReplicationLag;
}

/**
 * True while the organization holds an enabled Entra ID P1 or P2 service plan: an `assignedPlans`
 * entry of service `AADPremiumService` with `capabilityStatus` `Enabled` or `Warning`, its grace period (Graph "organization
 * resource type", "assignedPlan resource type"). Decides the audit log's retention.
 */
function hasEntraPremium(state: TenantState): boolean {
  return [...state.collection('organization').values()].some(
    (organization) =>
      Array.isArray(organization.assignedPlans) &&
      organization.assignedPlans.some(
        (plan: { service?: unknown; capabilityStatus?: unknown }) =>
          plan.service === 'AADPremiumService' &&
          (plan.capabilityStatus === 'Enabled' || plan.capabilityStatus === 'Warning'),
      ),
  );
}

/**
 * Routes and answers one request: Graph's error for an unknown path or method, the throttle's
 * admission (its headers on the answer, or a 429), then the route; GraphErrors become their reply.
 * A write that succeeds is logged in the directory audit (write-auditor.ts).
 */
function answerer(router: Router, { graph, throttle, counts, faults, auditor, lag }: AnswerParts): Answer {
  return async ({ method, url, headers, bodyText }) => {
    const match = router.match(method, url.pathname);
    try {
      if (match.kind === 'not-found')
        throw new GraphError(
          400,
          'BadRequest',
          `Resource not found for the segment '${url.pathname.split('/').pop() ?? ''}'.`,
        );
      if (match.kind === 'method-not-allowed')
        throw new GraphError(
          405,
          'Request_BadRequest',
          'Specified HTTP method is not allowed for the request target.',
        );
      const key = `${method} ${match.route.template}`;
      counts[key] = (counts[key] ?? 0) + 1;
      const admitted = graphAdmission(
        graph,
        throttle,
        method,
        match.route.template,
        url,
        headers.authorization,
      );
      const { template } = match.route;
      // Graph error codes: 503 serviceNotAvailable, "You may repeat the request after a delay".
      if (template.startsWith('/v1.0/') && template !== BATCH_TEMPLATE && faults.next() === 'error')
        throw new GraphError(
          503,
          'serviceNotAvailable',
          'The service is temporarily unavailable. Please retry later.',
        );
      const graphCall = template.startsWith('/v1.0/') && template !== BATCH_TEMPLATE;
      if (lag && graphCall) lag.check(template, match.params, bodyText);
      const audit = auditor.begin(method, template, match.params, headers.authorization, bodyText);
      const reply = await match.route.handle({ method, url, params: match.params, headers, bodyText });
      audit?.(reply);
      if (lag && graphCall && method === 'POST' && reply.status === 201 && reply.body)
        lag.created(JSON.parse(reply.body.toString()));
      return { ...reply, headers: { ...admitted, ...reply.headers } };
    } catch (error) {
      if (!(error instanceof GraphError)) throw error;
      return error.reply();
    }
  };
}

async function handle(
  answer: Answer,
  baseUrl: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const reply = await answer({
    method: req.method ?? 'GET',
    url: new URL(req.url ?? '/', baseUrl),
    headers: req.headers,
    bodyText: Buffer.concat(chunks).toString('utf8'),
  });
  const body = typeof reply.body === 'string' ? Buffer.from(reply.body) : reply.body;
  res.writeHead(reply.status, {
    ...(body
      ? {
          'Content-Type': 'application/json; odata.metadata=minimal; charset=utf-8',
          'Content-Length': String(body.length),
        }
      : {}),
    'request-id': randomUUID(),
    ...reply.headers,
  });
  res.end(body);
}
