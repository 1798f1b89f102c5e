import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { apiServiceRoutes } from './auth/api-services.routes.js';
import { CredentialStore } from './auth/credential-store.js';
import { tokenRoutes } from './auth/token.routes.js';
import { FaultInjector } from '@libs/simulators/kit/http/faults.js';
import { createRequestHandler } from './http/pipeline.js';
import { type OktaOrgFeature, withoutFeatures } from './http/org-features.js';
import { RequestLog } from './http/request-log.js';
import { type Route, Router } from '@libs/simulators/kit/http/router.js';
import { ID_PREFIX, oktaId } from './store/okta-ids.js';
import type { OrgContext } from './org-context.js';
import { RateLimiter } from './rate-limit/rate-limiter.js';
import { adminRoleRoutes } from './resources/admin-roles.routes.js';
import { roleTargetRoutes } from './resources/role-targets.routes.js';
import { appRoutes } from './resources/apps.routes.js';
import { authorizationServerRoutes } from './resources/authorization-servers.routes.js';
import { brandRoutes } from './resources/brands.routes.js';
import { groupRuleRoutes } from './resources/group-rules.routes.js';
import { groupRoutes } from './resources/groups.routes.js';
import { iamRoutes } from './resources/iam.routes.js';
import { integrationRoutes } from './resources/integrations.routes.js';
import { networkZoneRoutes } from './resources/network-zones.routes.js';
import { policyRoutes } from './resources/policies.routes.js';
import { profileMappingRoutes } from './resources/profile-mappings.routes.js';
import { schemaTypeRoutes } from './resources/schemas.routes.js';
import { securityRoutes } from './resources/security.routes.js';
import { systemLogRoutes } from './resources/system-log.routes.js';
import { trustedOriginRoutes } from './resources/trusted-origins.routes.js';
import { userRoutes } from './resources/users.routes.js';
import { seedFromFixtures } from './seed/fixtures/fixture-seeder.js';
import { DEFAULT_SIZES, generateOrg } from './seed/generator/generate-org.js';
import type { RunningSimulator, SimulatorOptions } from './simulator-options.js';
import { snapshotOf } from './snapshot.js';
import { OrgState } from './store/org-state.js';
import { issueTlsMaterial } from '@libs/simulators/kit/tls/certificates.js';
import { listenHttps } from '@libs/simulators/kit/tls/https-listener.js';

function routerFor(org: OrgContext, extra: Route[], lacking: readonly OktaOrgFeature[]): Router {
  const router = new Router();
  router.add(...extra);
  for (const routes of [
    tokenRoutes,
    apiServiceRoutes,
    userRoutes,
    groupRoutes,
    groupRuleRoutes,
    appRoutes,
    policyRoutes,
    authorizationServerRoutes,
    networkZoneRoutes,
    trustedOriginRoutes,
    schemaTypeRoutes,
    securityRoutes,
    integrationRoutes,
    profileMappingRoutes,
    brandRoutes,
    adminRoleRoutes,
    roleTargetRoutes,
    iamRoutes,
    systemLogRoutes,
  ])
    router.add(...withoutFeatures(routes(org), lacking));
  return router;
}

/**
 * Starts an HTTPS server that behaves like an Okta org (DESIGN §7; README.md here):
 * generates a CA and a server certificate, listens on loopback, seeds the org from the
 * generator (default) or from recorded traffic (`fixturesDir`), then serves the Management API
 * subset in ./resources, the org authorization server token endpoint and API service
 * integrations. Rejects when the port is taken or the fixtures folder cannot be read.
 */
export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const host = options.host ?? '127.0.0.1';
  const ownCertDir = options.certDir === undefined;
  const certDir = options.certDir ?? (await mkdtemp(join(tmpdir(), 'okta-simulator-')));
  await mkdir(certDir, { recursive: true });
  const tls = await issueTlsMaterial(certDir);

  const { server, baseUrl } = await listenHttps(tls, host, options.port ?? 0);

  const state = new OrgState();
  const credentials = new CredentialStore();
  const org: OrgContext = { state, credentials, baseUrl, now: Date.now };
  try {
    const fixtureReport = options.fixturesDir
      ? await seedFromFixtures(state, options.fixturesDir, options.fixtureOrg)
      : undefined;
    if (!options.fixturesDir)
      generateOrg(
        state,
        {
          users: options.users ?? DEFAULT_SIZES.users,
          groups: options.groups ?? DEFAULT_SIZES.groups,
          apps: options.apps ?? DEFAULT_SIZES.apps,
          seed: options.seed ?? DEFAULT_SIZES.seed,
        },
        baseUrl,
      );
    const requestLog = new RequestLog();
    const rateLimiter = new RateLimiter(options.rateLimits ?? 'none');
    const faults = new FaultInjector(options.faults);
    server.on(
      'request',
      createRequestHandler({
        router: routerFor(org, options.hostedRoutes?.(org) ?? [], options.lacksFeatures ?? []),
        credentials,
        rateLimiter,
        requestLog,
        faults,
        baseUrl,
        onInternalError: (error) => console.error('[okta-simulator] internal error', error),
      }),
    );
    return {
      baseUrl,
      caCertPath: tls.caCertPath,
      caCertPem: tls.caCertPem,
      adminToken: credentials.adminToken,
      fixtureReport,
      registerServiceApp: (publicJwk, scopes) => {
        const clientId = oktaId(ID_PREFIX.app);
        credentials.registerClient({ clientId, publicJwk, grantedScopes: [...scopes] });
        return clientId;
      },
      createApiToken: (userId) => credentials.createApiToken(userId),
      snapshot: () => snapshotOf(state, baseUrl),
      requestLog: () => requestLog.summary(),
      setRateLimits: (mode) => rateLimiter.setMode(mode),
      setFaults: (options) => faults.configure(options),
      close: async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        if (ownCertDir) await rm(certDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    server.close();
    if (ownCertDir) await rm(certDir, { recursive: true, force: true });
    throw error;
  }
}
