import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes, randomUUID } from 'node:crypto';
import {
  base64url,
  decodeJwt,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  type JWTPayload,
  SignJWT,
} from 'jose';
import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { SIGNING_KEYS, type SigningKeySet } from '@app/identity/auth/signing-keys.service.js';
import { MAX_BACKUP_PAGE } from '@app/backups/dto/list-backups.query.js';
import { Permission, ROLES, type Role, roleHasPermission } from '@app/common/permission.js';
import { TeamsService } from '@app/identity/teams/teams.service.js';
import { MAX_TIMELINE_BACKUPS } from '@app/timeline/dto/timeline.query.js';
import { type AppRoute, expressRoutes, nestRoutes } from './support/api-routes.js';
import { createConnection, runBackup } from './support/backup-helpers.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';

const P = Permission;
const PUBLIC = 'public';
/** Any authenticated caller, whatever the role (`@RequireAuthentication()`). */
const AUTHENTICATED = 'authenticated';

/**
 * Every /api route and what it demands: the spec's Endpoints section (permissions named there,
 * DESIGN section 3 for account erasure), then the routes beyond the spec (docs/security.md).
 * A route of the app missing here fails the inventory test: a new route's access is a decision
 * to review, not a default. Routes of the spec not built yet are simply not checked.
 */
const ENDPOINTS: Record<string, Permission | typeof PUBLIC | typeof AUTHENTICATED> = {
  'GET /api/backup/list': P.ViewBackups,
  'GET /api/backup/:id': P.ViewBackups,
  'DELETE /api/backup/:id': P.RunBackups,
  'GET /api/backup/status': P.ViewBackups,
  'GET /api/backup/active': P.ViewBackups,
  'POST /api/backup/run': P.RunBackups,
  'GET /api/connections': P.ManageConnections,
  'POST /api/connections/create': P.ManageConnections,
  'GET /api/connections/:id': P.ManageConnections,
  'PATCH /api/connections/:id': P.ManageConnections,
  'DELETE /api/connections/:id': P.ManageConnections,
  'GET /api/connections/:id/schedule': P.ManageConnections,
  'PATCH /api/connections/:id/schedule': P.ManageConnections,
  'POST /api/diff': P.ViewBackups,
  'GET /api/diff': P.ViewBackups,
  'GET /api/restore': P.Restore,
  'POST /api/restore': P.Restore,
  'POST /api/compliance/check': P.Compliance,
  'GET /api/compliance/checks/:checkId': P.Compliance,
  'GET /api/scores/resilience': P.ViewBackups,
  'GET /api/scores/readiness': P.ViewBackups,
  // Beyond the spec (docs/scores.md "History"): both scores over time.
  'GET /api/scores/history': P.ViewBackups,
  'POST /api/export/report': P.Export,
  'POST /api/export/audit-pack': P.Export,
  // Beyond the spec (docs/export.md): the signed download of a report; the signature is the credential.
  'GET /api/export/reports/:id': PUBLIC,
  // Beyond the spec (docs/export.md): the public key audit packs are signed with, for auditors.
  'GET /api/export/signing-key': PUBLIC,
  // Beyond the spec (docs/export.md): restore drills, a snapshot verified end to end.
  'POST /api/backup/:id/verify': P.RunBackups,
  'GET /api/restore-drills/:drillId': P.ViewBackups,
  'GET /api/notifications': P.ViewNotifications,
  'GET /api/resource-timeline': P.ViewBackups,
  'POST /api/newsletter/subscribe': PUBLIC,
  'GET /api/newsletter/unsubscribe': PUBLIC,
  'POST /api/newsletter/unsubscribe': PUBLIC,
  // Beyond the spec (docs/decisions.md): the double opt-in link of the confirmation mail (a page), and
  // its button's post, which confirms.
  'GET /api/newsletter/confirm': PUBLIC,
  'POST /api/newsletter/confirm': PUBLIC,
  'GET /api/health': PUBLIC,
  'GET /api/account/export': P.Export,
  'POST /api/account/delete': P.AccountErasure,
  'DELETE /api/account/delete': P.AccountErasure,
  'POST /api/auth/send-code': PUBLIC,
  'POST /api/auth/verify-code': PUBLIC,
  // Beyond the spec.
  'POST /api/auth/sign-out': PUBLIC,
  // Beyond the spec: the ways to sign in, for the console's sign-in screen (docs/auth.md).
  'GET /api/sign-in/options': PUBLIC,
  'GET /api/team/members': P.ManageTeam,
  'PATCH /api/team/members/:userId': P.ManageTeam,
  'DELETE /api/team/members/:userId': P.ManageTeam,
  'POST /api/team/ownership/transfer': P.ManageTeam,
  'GET /api/team/invitations': P.ManageTeam,
  'POST /api/team/invitations': P.ManageTeam,
  'DELETE /api/team/invitations/:id': P.ManageTeam,
  'GET /api/team/clients': P.ManageTeam,
  'POST /api/team/clients': P.ManageTeam,
  'DELETE /api/team/clients/:clientId': P.ManageTeam,
  // The caller's own profile and team switching (DESIGN section 9): every role.
  'GET /api/me': AUTHENTICATED,
  'POST /api/me/team': AUTHENTICATED,
  'GET /api/restore/history': P.Restore,
  // Beyond the spec (docs/restore.md "Undo since a clean backup"): an undo's dry run.
  'GET /api/restore/undo': P.Restore,
  'GET /api/restore/:restoreId': P.Restore,
  'GET /api/restore/previews/:previewId': P.Restore,
  'GET /api/audit-events': P.Export,
  'POST /api/notifications/read': P.ViewNotifications,
  'GET /api/notifications/preferences': P.ViewNotifications,
  'PATCH /api/notifications/preferences': P.ViewNotifications,
  // Beyond the spec (docs/okta-workflows.md): a backup from an Okta Workflows export file, and the download
  // of a Workflows restore's re-import package (a signed URL, as reports).
  'POST /api/connections/:id/workflows/upload': P.RunBackups,
  'GET /api/restore/packages/:restoreId': PUBLIC,
  // Beyond the spec (docs/approvals.md): two-person approval. Anyone who sees backups follows the
  // requests; members with `restore` decide; the setting is team management.
  'GET /api/approvals': P.ViewBackups,
  'GET /api/approvals/:id': P.ViewBackups,
  'POST /api/approvals/:id/approve': P.Restore,
  'POST /api/approvals/:id/reject': P.Restore,
  'GET /api/team/approval-settings': P.ManageTeam,
  'PUT /api/team/approval-settings': P.ManageTeam,
};

/** Public routes that need a signed URL instead of a token (docs/export.md: report downloads). */
const SIGNED_ROUTES = ['GET /api/export/reports/:id', 'GET /api/restore/packages/:restoreId'];

/** Routes Express serves outside Nest's controllers, each public on purpose. */
const RAW_ROUTES = [
  'GET /api/openapi.json',
  // Swagger UI (docs/api.md): its page, its per-document script (Swagger's module registers it at
  // two paths), and a 404 for the licence file of the static assets.
  'GET /api/docs',
  'GET /api/docs/',
  'GET /api/docs/index.html',
  'GET /api/docs/swagger-ui-init.js',
  'GET /api/docs/docs/swagger-ui-init.js',
  'GET /api/docs/LICENSE',
];

const routeKey = (route: Pick<AppRoute, 'method' | 'path'>): string => `${route.method} ${route.path}`;
/** A concrete URL for a route pattern: every parameter becomes a fresh uuid. */
const concrete = (path: string): string => path.replace(/:[A-Za-z]+/g, () => randomUUID());
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const nowSeconds = (): number => Math.floor(Date.now() / 1000);

describe('security suite: routes, 401 cases, role matrix, tenancy, request validation', () => {
  let org: TestOrg;
  let sut: TestApp;
  let routes: AppRoute[];
  /** Team A: one client per role. */
  const teamA = {} as Record<Role, TestClient>;
  /** Team B: one of everything, for cross-team probes. */
  let teamB: {
    owner: TestClient;
    viewer: TestClient;
    connectionId: string;
    backupId: string;
    restoreId: string;
    memberId: string;
    invitationId: string;
    /** Team B's own views of its connection and schedule before any probe. */
    views: { connection: unknown; schedule: unknown };
  };

  beforeAll(async () => {
    org = await startTestOrg({ users: 3, groups: 2, apps: 1, seed: 61 });
    sut = await startTestApp(org.env);
    routes = nestRoutes(sut.app);
    teamA.super_admin = await sut.newClient();
    for (const role of ROLES.filter((r) => r !== 'super_admin'))
      teamA[role] = await sut.newClient({ role, teamId: teamA.super_admin.teamId });

    const owner = await sut.newClient();
    const connectionId = await createConnection(sut, owner.token, {
      baseUrl: org.sim.baseUrl,
      clientId: org.integration.clientId,
      clientSecret: org.integration.clientSecret,
    });
    const backup = await runBackup(sut, owner.token, { connectionId });
    const memberEmail = `member-${randomBytes(4).toString('hex')}@example.com`;
    await sut.http
      .post('/api/team/invitations')
      .set(bearer(owner.token))
      .send({ email: memberEmail, role: 'viewer' });
    const member = await sut.app.get(TeamsService).resolveSignIn(memberEmail);
    const invitation = await sut.http
      .post('/api/team/invitations')
      .set(bearer(owner.token))
      .send({ email: `invited-${randomBytes(4).toString('hex')}@example.com`, role: 'viewer' });
    const views = {
      connection: (await sut.http.get(`/api/connections/${connectionId}`).set(bearer(owner.token))).body,
      schedule: (await sut.http.get(`/api/connections/${connectionId}/schedule`).set(bearer(owner.token)))
        .body,
    };
    // The integration holds read scopes only: this restore fails at its first write, which is all
    // the probes need of it (a row of team B's).
    const restore = await sut.http
      .post('/api/restore')
      .set(bearer(owner.token))
      .send({ backupId: backup.id, mode: 'full' })
      .expect(202);
    teamB = {
      views,
      owner,
      viewer: await sut.newClient({ role: 'viewer', teamId: owner.teamId }),
      connectionId,
      backupId: backup.id,
      restoreId: restore.body.restoreId,
      memberId: member!.userId,
      invitationId: invitation.body.invitation.id,
    };
  });
  afterAll(async () => {
    await sut?.close();
    await org?.sim.close();
  });

  describe('route inventory', () => {
    it('finds the routes of the app', () => {
      expect(routes.map(routeKey)).toEqual(
        expect.arrayContaining(['POST /api/backup/run', 'GET /api/health']),
      );
    });

    it('has no route that is neither @Public() nor guarded by a permission or authentication', () => {
      const open = routes.filter(
        (route) => !route.permission && !route.isPublic && !route.authenticationOnly,
      );
      expect(open.map((route) => `${routeKey(route)} (${route.handler})`)).toEqual([]);
    });

    it('has no route a public marker opens despite a permission', () => {
      // The guard lets the permission win, but a route carrying both says two things at once.
      const both = routes.filter((route) => route.permission && route.isPublic);
      expect(both.map((route) => `${routeKey(route)} (${route.handler})`)).toEqual([]);
    });

    it('serves nothing through Express that bypasses the controllers, besides the public OpenAPI document', () => {
      const known = new Set([...routes.map(routeKey), ...RAW_ROUTES]);
      expect(expressRoutes(sut.app).filter((route) => !known.has(route))).toEqual([]);
    });

    it('gives every /api route exactly the access of the endpoint table (spec "Endpoints", DESIGN section 3)', () => {
      const actual = routes
        .filter((route) => route.path.startsWith('/api/'))
        .map((route) => [
          routeKey(route),
          route.permission ?? (route.authenticationOnly ? AUTHENTICATED : PUBLIC),
        ]);
      const expected = actual.map(([key]) => [key, ENDPOINTS[key] ?? 'missing from ENDPOINTS']);
      expect(actual).toEqual(expected);
    });

    it('keeps team management away from roles that only manage connections', () => {
      const team = routes.filter((route) => route.path.startsWith('/api/team/'));
      expect(team.length).toBeGreaterThan(0);
      for (const route of team)
        expect([routeKey(route), route.permission]).toEqual([routeKey(route), P.ManageTeam]);
      expect(ROLES.filter((role) => roleHasPermission(role, P.ManageTeam))).toEqual(['super_admin', 'admin']);
    });
  });

  describe('role by endpoint matrix (DESIGN section 3, driven by the routes metadata)', () => {
    /** What the guard must decide for `role` (undefined: no token) on `route`. */
    function expectedOutcome(route: AppRoute, role: Role | undefined): 'allowed' | 401 | 403 {
      // Public routes whose credential is a signature in the URL: unsigned, the handler refuses (403).
      if (SIGNED_ROUTES.includes(routeKey(route))) return 403;
      // The MCP endpoint is a resource of its own (docs/mcp.md): no API token, whatever its role, gets in.
      if (route.path === '/mcp') return 401;
      if (route.isPublic && !route.permission) return 'allowed';
      if (!role) return 401;
      if (route.authenticationOnly && !route.permission) return 'allowed';
      return roleHasPermission(role, route.permission!) ? 'allowed' : 403;
    }

    it.each([undefined, ...ROLES])('decides every route as the table says for %s', async (role) => {
      const mismatches: string[] = [];
      for (const route of routes) {
        const expected = expectedOutcome(route, role);
        const call = sut.http[route.method.toLowerCase() as 'get'](concrete(route.path));
        if (role) call.set(bearer(teamA[role].token));
        const response = await (['POST', 'PUT', 'PATCH'].includes(route.method) ? call.send({}) : call);
        const outcome = response.status === 401 || response.status === 403 ? response.status : 'allowed';
        if (outcome !== expected)
          mismatches.push(`${routeKey(route)}: expected ${expected}, got ${response.status}`);
        else if (outcome === 403) expect(response.body.code).toBe('forbidden');
      }
      expect(mismatches).toEqual([]);
    });
  });

  describe('bearer tokens: every failure is a 401 with WWW-Authenticate (RFC 6750 §3, RFC 9728 §5.1)', () => {
    /** view backups: every role holds it, so a refusal here can only be authentication. */
    const PROTECTED = '/api/backup/list';

    /** A token signed by the server's own key, with `changes` to claims and header. */
    async function forge(
      changes: { claims?: JWTPayload; header?: Record<string, unknown>; key?: JWK; alg?: string } = {},
    ): Promise<string> {
      const ours = sut.app.get<SigningKeySet>(SIGNING_KEYS).privateJwks[0];
      const alg = changes.alg ?? 'ES256';
      return new SignJWT({ ...decodeJwt(teamA.viewer.token), ...changes.claims })
        .setProtectedHeader({ alg, typ: 'at+jwt', kid: ours.kid, ...changes.header })
        .sign(changes.key ? await importJWK(changes.key, alg) : await importJWK(ours, alg));
    }

    async function strangerKey(): Promise<JWK> {
      const { privateKey } = await generateKeyPair('ES256', { extractable: true });
      return exportJWK(privateKey);
    }

    function expectUnauthorized(response: Response, presentedToken: boolean): void {
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ error: expect.any(String), code: 'unauthorized' });
      const resourceMetadata = `${sut.baseUrl}/.well-known/oauth-protected-resource/api/`;
      expect(response.headers['www-authenticate']).toBe(
        `Bearer resource_metadata="${resourceMetadata}"${presentedToken ? ', error="invalid_token"' : ''}`,
      );
    }

    it('answers 401 without an Authorization header, and to another scheme', async () => {
      expectUnauthorized(await sut.http.get(PROTECTED), false);
      const basic = await sut.http.get(PROTECTED).auth(teamA.viewer.clientId, teamA.viewer.clientSecret);
      expectUnauthorized(basic, false);
    });

    it.each<[string, () => Promise<string>]>([
      ['an empty token', async () => ''],
      ['garbage', async () => 'garbage'],
      [
        'a bad signature',
        async () => {
          const [header, payload, signature] = teamA.viewer.token.split('.');
          const flipped = Buffer.from(signature, 'base64url');
          flipped[0] ^= 0xff;
          return `${header}.${payload}.${flipped.toString('base64url')}`;
        },
      ],
      ['a token signed by another key under our kid', async () => forge({ key: await strangerKey() })],
      [
        'alg none',
        async () => {
          const payload = teamA.viewer.token.split('.')[1];
          return `${base64url.encode(JSON.stringify({ alg: 'none', typ: 'at+jwt' }))}.${payload}.`;
        },
      ],
      [
        'HS256 keyed with our public key (algorithm confusion)',
        async () => {
          const publicJwk = sut.app.get<SigningKeySet>(SIGNING_KEYS).publicJwks[0];
          const secret = { kty: 'oct', k: base64url.encode(JSON.stringify(publicJwk)) };
          return forge({ alg: 'HS256', key: secret });
        },
      ],
      ['the wrong issuer', () => forge({ claims: { iss: 'https://evil.example.com' } })],
      ['the wrong audience', () => forge({ claims: { aud: 'https://other.example.com/api/' } })],
      [
        'an audience list beside ours',
        () => forge({ claims: { aud: [sut.config.API_RESOURCE, 'https://x.example/'] } }),
      ],
      ['an expired token', () => forge({ claims: { iat: nowSeconds() - 3600, exp: nowSeconds() - 60 } })],
      ['a token not valid yet', () => forge({ claims: { nbf: nowSeconds() + 3600 } })],
      [
        'an ID token used as an access token (typ JWT, audience the client, nonce)',
        () =>
          forge({
            header: { typ: 'JWT' },
            claims: { aud: teamA.viewer.clientId, nonce: 'n-0S6_WzA2Mj', auth_time: nowSeconds() },
          }),
      ],
      ['an access token without typ at+jwt (RFC 9068 §4)', () => forge({ header: { typ: 'JWT' } })],
      ['a token without client_id', () => forge({ claims: { client_id: undefined } })],
      [
        'a token of an unknown client',
        () => forge({ claims: { client_id: 'ic_unknown', sub: 'ic_unknown' } }),
      ],
    ])('answers 401 invalid_token to %s', async (_case, token) => {
      const response = await sut.http.get(PROTECTED).set('Authorization', `Bearer ${await token()}`);
      expectUnauthorized(response, true);
    });

    it('answers 401 to a token in the query string, alone or beside a valid header (RFC 6750 §2.3)', async () => {
      const url = `${PROTECTED}?access_token=${teamA.viewer.token}`;
      expectUnauthorized(await sut.http.get(url), false);
      expectUnauthorized(await sut.http.get(url).set(bearer(teamA.viewer.token)), true);
    });

    it('answers 401 to a token in the body beside a valid header (RFC 6750 §2.2)', async () => {
      const response = await sut.http
        .post('/api/diff')
        .set(bearer(teamA.viewer.token))
        .send({ access_token: teamA.viewer.token });
      expectUnauthorized(response, true);
    });

    it('answers 401 to the unexpired token of a revoked client', async () => {
      const client = await sut.newClient({ role: 'viewer', teamId: teamA.super_admin.teamId });
      await sut.http.get(PROTECTED).set(bearer(client.token)).expect(200);
      await sut.http
        .delete(`/api/team/clients/${client.clientId}`)
        .set(bearer(teamA.super_admin.token))
        .expect(200);
      expectUnauthorized(await sut.http.get(PROTECTED).set(bearer(client.token)), true);
    });

    it('answers 401 to the unexpired token of a user removed from the team', async () => {
      const email = `leaver-${randomBytes(4).toString('hex')}@example.com`;
      const owner = teamA.super_admin;
      await sut.http
        .post('/api/team/invitations')
        .set(bearer(owner.token))
        .send({ email, role: 'viewer' })
        .expect(201);
      const teams = sut.app.get(TeamsService);
      const { userId } = (await teams.resolveSignIn(email))!;
      const client = await teams.createClient({ teamId: owner.teamId, role: 'viewer', createdBy: userId });
      const token = await sut.token(client.clientId, client.clientSecret);
      await sut.http.get(PROTECTED).set(bearer(token)).expect(200);
      await sut.http.delete(`/api/team/members/${userId}`).set(bearer(owner.token)).expect(200);
      expectUnauthorized(await sut.http.get(PROTECTED).set(bearer(token)), true);
    });

    it('answers 401 to the unexpired token of a deleted team', async () => {
      const doomed = await sut.newClient({ role: 'viewer' });
      await sut.http.get(PROTECTED).set(bearer(doomed.token)).expect(200);
      await sut.app.get(DataSource).query('DELETE FROM teams WHERE id = $1', [doomed.teamId]);
      expectUnauthorized(await sut.http.get(PROTECTED).set(bearer(doomed.token)), true);
    });
  });

  describe("another team's resources are a 404, never a 403 (DESIGN section 3)", () => {
    const probes = (): Array<[string, string, string, Record<string, unknown>?]> => [
      ['connection', 'GET', `/api/connections/${teamB.connectionId}`],
      ['connection', 'PATCH', `/api/connections/${teamB.connectionId}`, { org_name: 'hijacked' }],
      ['connection', 'DELETE', `/api/connections/${teamB.connectionId}`],
      ['schedule', 'GET', `/api/connections/${teamB.connectionId}/schedule`],
      ['schedule', 'PATCH', `/api/connections/${teamB.connectionId}/schedule`, { enabled: false }],
      ['backup run', 'POST', '/api/backup/run', { connectionId: teamB.connectionId }],
      ['backup', 'GET', `/api/backup/${teamB.backupId}`],
      ['backup status', 'GET', `/api/backup/status?backupId=${teamB.backupId}`],
      ['backup', 'DELETE', `/api/backup/${teamB.backupId}`],
      ['diff', 'GET', `/api/diff?fromBackupId=${teamB.backupId}&toBackupId=${teamB.backupId}`],
      ['diff', 'POST', '/api/diff', { fromBackupId: teamB.backupId, toBackupId: teamB.backupId }],
      ['restore preview', 'GET', `/api/restore?backupId=${teamB.backupId}`],
      ['restore dry run', 'POST', '/api/restore', { backupId: teamB.backupId }],
      ['restore', 'POST', '/api/restore', { backupId: teamB.backupId, mode: 'full' }],
      ['restore', 'GET', `/api/restore/${teamB.restoreId}`],
      [
        'resource timeline',
        'GET',
        `/api/resource-timeline?connectionId=${teamB.connectionId}&resourceType=users&resourceId=x`,
      ],
      ['member', 'PATCH', `/api/team/members/${teamB.memberId}`, { role: 'auditor' }],
      ['member', 'DELETE', `/api/team/members/${teamB.memberId}`],
      ['ownership', 'POST', '/api/team/ownership/transfer', { user_id: teamB.memberId }],
      ['invitation', 'DELETE', `/api/team/invitations/${teamB.invitationId}`],
      ['integration client', 'DELETE', `/api/team/clients/${teamB.viewer.clientId}`],
    ];

    it('answers 404 not_found to every route naming one, for the most powerful role of another team', async () => {
      const answers: string[] = [];
      for (const [kind, method, url, body] of probes()) {
        const call = sut.http[method.toLowerCase() as 'get'](url).set(bearer(teamA.super_admin.token));
        const response = await (body ? call.send(body) : call);
        answers.push(`${kind}: ${method} ${url.split('?')[0]} -> ${response.status} ${response.body.code}`);
      }
      expect(answers).toEqual(
        probes().map(([kind, method, url]) => `${kind}: ${method} ${url.split('?')[0]} -> 404 not_found`),
      );
    });

    it('lists none of them', async () => {
      const lists = [
        '/api/connections',
        '/api/backup/list',
        `/api/backup/list?connectionId=${teamB.connectionId}`,
        '/api/backup/active',
        '/api/restore/history',
        `/api/restore/history?connectionId=${teamB.connectionId}`,
        '/api/team/members',
        '/api/team/invitations',
        '/api/team/clients',
      ];
      const ids = [
        teamB.connectionId,
        teamB.backupId,
        teamB.restoreId,
        teamB.memberId,
        teamB.invitationId,
        teamB.owner.clientId,
        teamB.viewer.clientId,
        teamB.owner.ownerUserId,
      ];
      for (const list of lists) {
        const response = await sut.http.get(list).set(bearer(teamA.super_admin.token));
        expect([list, response.status, ids.filter((id) => response.text.includes(id))]).toEqual([
          list,
          200,
          [],
        ]);
      }
    });

    it('leaves them untouched', async () => {
      const owner = bearer(teamB.owner.token);
      const connection = await sut.http.get(`/api/connections/${teamB.connectionId}`).set(owner);
      const schedule = await sut.http.get(`/api/connections/${teamB.connectionId}/schedule`).set(owner);
      expect({ connection: connection.body, schedule: schedule.body }).toEqual(teamB.views);
      await sut.http.get(`/api/backup/${teamB.backupId}`).set(owner).expect(200);
      const members = await sut.http.get('/api/team/members').set(owner).expect(200);
      expect(members.body.members).toEqual(
        expect.arrayContaining([expect.objectContaining({ user_id: teamB.memberId, role: 'viewer' })]),
      );
      const invitations = await sut.http.get('/api/team/invitations').set(owner).expect(200);
      expect(invitations.body.invitations.map((i: { id: string }) => i.id)).toContain(teamB.invitationId);
      await sut.http.get('/api/backup/list').set(bearer(teamB.viewer.token)).expect(200);
    });
  });

  describe('request validation', () => {
    it('rejects an unknown body field on every route that takes a body (no mass assignment)', async () => {
      const withBody = routes.filter((route) => route.hasBody && route.permission);
      expect(withBody.length).toBeGreaterThan(5);
      const answers: string[] = [];
      for (const route of withBody) {
        const response = await sut.http[route.method.toLowerCase() as 'post'](concrete(route.path))
          .set(bearer(teamA.super_admin.token))
          .send({ team_id: randomUUID() });
        const named = JSON.stringify(response.body.details ?? []).includes(
          'property team_id should not exist',
        );
        answers.push(`${routeKey(route)} -> ${response.status} ${named ? 'names team_id' : response.text}`);
      }
      expect(answers).toEqual(withBody.map((route) => `${routeKey(route)} -> 400 names team_id`));
    });

    it.each(['__proto__', 'constructor'])('rejects a %s key, at any depth, naming it', async (key) => {
      const owner = bearer(teamA.super_admin.token);
      const email = `proto-${randomBytes(4).toString('hex')}@example.com`;
      const bodies = [
        `{"email":"${email}","role":"viewer","${key}":{"role":"super_admin"}}`,
        `{"connectionId":"${randomUUID()}","include":[{"${key}":{"polluted":true}}]}`,
      ];
      const answers = [];
      for (const [index, body] of bodies.entries()) {
        const url = index === 0 ? '/api/team/invitations' : '/api/backup/run';
        const response = await sut.http
          .post(url)
          .set(owner)
          .set('Content-Type', 'application/json')
          .send(body);
        answers.push([response.status, response.body.code, response.body.details?.[0]?.field]);
      }
      expect(answers).toEqual([
        [400, 'validation_failed', key],
        [400, 'validation_failed', `include.0.${key}`],
      ]);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      const invitations = await sut.http.get('/api/team/invitations').set(owner);
      expect(invitations.body.invitations.map((i: { email: string }) => i.email)).not.toContain(email);
    });

    it('answers a JSON body over 100 KB with 400 validation_failed in the error shape, before authentication', async () => {
      const huge = {
        org_url: 'https://acme.okta.com',
        client_id: 'x',
        client_secret: 'y'.repeat(101 * 1024),
      };
      for (const headers of [bearer(teamA.super_admin.token), {}]) {
        const response = await sut.http.post('/api/connections/create').set(headers).send(huge);
        expect(response.status).toBe(400);
        expect(response.body).toEqual({
          error: 'Request body too large (at most 100 KB of JSON)',
          code: 'validation_failed',
          details: [{ field: 'body', message: 'larger than 100 KB' }],
          requestId: expect.any(String),
        });
      }
    });

    it('answers page sizes over the maximum with 400 naming the field, and accepts the maximum', async () => {
      const token = bearer(teamA.viewer.token);
      const list = await sut.http.get(`/api/backup/list?limit=${MAX_BACKUP_PAGE + 1}`).set(token);
      expect([list.status, list.body.details?.[0]?.field]).toEqual([400, 'limit']);
      await sut.http.get(`/api/backup/list?limit=${MAX_BACKUP_PAGE}`).set(token).expect(200);
      const timeline = await sut.http
        .get('/api/resource-timeline')
        .query({
          connectionId: randomUUID(),
          resourceType: 'users',
          resourceId: 'x',
          limit: MAX_TIMELINE_BACKUPS + 1,
        })
        .set(token);
      expect([timeline.status, timeline.body.details?.[0]?.field]).toEqual([400, 'limit']);
    });
  });
});
