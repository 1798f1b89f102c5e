import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { request } from 'undici';
import { nestRoutes } from './support/api-routes.js';
import { createConnection, runBackup } from './support/backup-helpers.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import {
  boundaryRequests,
  type FuzzCaller,
  type FuzzRequest,
  type Operation,
  operationsOf,
  requestTo,
} from './support/request-fuzz.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** Fixed, so that CI runs the same cases every time; change it to explore others. */
const SEED = 22;
/** Cases per route: about 2,000 requests in all. */
const RUNS = 40;

const get = (path: string, query: string[] = []): Operation => ({
  method: 'GET',
  path,
  pathParams: [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]),
  query: query.map((name) => ({ name, schema: { type: 'string' } })),
});
const postForm = (path: string, formFields: string[]): Operation => ({
  ...get(path),
  method: 'POST',
  formFields,
});

/**
 * Routes the OpenAPI document leaves out: its own, the browser's sign-in pages (HTML forms) and
 * the protected-resource metadata (Nest routes), then the authorization server's (oidc-provider).
 */
const BEYOND_OPENAPI: Operation[] = [
  get('/api/openapi.json'),
  get('/.well-known/oauth-protected-resource'),
  get('/.well-known/oauth-protected-resource/api'),
  get('/interaction/{uid}'),
  postForm('/interaction/{uid}/send-code', ['email']),
  postForm('/interaction/{uid}/verify-code', ['email', 'code']),
  postForm('/interaction/{uid}/consent', ['decision']),
  postForm('/interaction/{uid}/abort', []),
  get('/sign-in/oidc', ['return_to']),
  get('/sign-in/oidc/callback', ['code', 'state', 'iss', 'error']),
  // The newsletter links' landing pages: HTML for people, out of the API document (docs/api.md).
  get('/subscribed', ['token']),
  get('/unsubscribed', ['token']),
  // The orchestrator's probes (docs/operations.md): beside the API, out of its document.
  get('/livez'),
  get('/readyz'),
  // The MCP endpoint (docs/mcp.md): its metadata, and the endpoint itself, which refuses the API
  // token the fuzzer holds (401) whatever the message; test/mcp.e2e-spec.ts calls its tools.
  get('/.well-known/oauth-protected-resource/mcp'),
  get('/mcp'),
  { ...get('/mcp'), method: 'DELETE' },
  {
    ...get('/mcp'),
    method: 'POST',
    body: {
      type: 'object',
      properties: {
        jsonrpc: { type: 'string' },
        id: { type: 'integer' },
        method: { type: 'string' },
        params: { type: 'object' },
      },
    },
  },
  get('/.well-known/oauth-authorization-server'),
  get('/oauth/jwks'),
  get('/oauth/authorize', [
    'client_id',
    'response_type',
    'redirect_uri',
    'scope',
    'state',
    'code_challenge',
    'code_challenge_method',
    'resource',
  ]),
  postForm('/oauth/token', [
    'grant_type',
    'resource',
    'scope',
    'client_id',
    'client_secret',
    'code',
    'code_verifier',
    'redirect_uri',
    'refresh_token',
  ]),
  postForm('/oauth/introspect', ['token', 'token_type_hint', 'client_id', 'client_secret']),
  postForm('/oauth/revoke', ['token', 'token_type_hint', 'client_id', 'client_secret']),
  {
    ...get('/oauth/register'),
    method: 'POST',
    body: {
      type: 'object',
      properties: {
        client_name: { type: 'string' },
        redirect_uris: { type: 'array', items: { type: 'string' } },
        grant_types: { type: 'array', items: { type: 'string' } },
        token_endpoint_auth_method: { type: 'string' },
        scope: { type: 'string' },
      },
    },
  },
];

/** What the property demands of every answer; the request is in the message of a failure. */
async function expectHandled(baseUrl: string, sent: FuzzRequest): Promise<void> {
  const response = await request(`${baseUrl}${sent.target}`, {
    method: sent.method as 'GET',
    headers: sent.headers,
    body: sent.body,
  });
  const text = await response.body.text();
  const headers = {
    ...sent.headers,
    ...(sent.headers.Authorization ? { Authorization: 'Bearer <token>' } : {}),
  };
  const where = `${sent.method} ${sent.target.slice(0, 300)} ${JSON.stringify(headers)} ${String(sent.body).slice(0, 300)}`;
  if (response.statusCode >= 500) throw new Error(`${where} -> ${response.statusCode} ${text.slice(0, 300)}`);
  const isApi = sent.target.startsWith('/api/') && !sent.target.startsWith('/api/openapi.json');
  if (!isApi || response.statusCode < 400) return;
  let body: { error?: unknown; code?: unknown } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // Left empty: the shape check below reports it.
  }
  if (typeof body.error !== 'string' || typeof body.code !== 'string')
    throw new Error(
      `${where} -> ${response.statusCode} not in the { error, code } shape: ${text.slice(0, 300)}`,
    );
}

/**
 * Property-based fuzzing of every route (docs/security.md "Request validation"): random and boundary values
 * for each path and query parameter and body field the OpenAPI document names, values of other types,
 * unknown fields, hostile text (NUL, unpaired surrogates, bad percent-escapes), deep JSON and
 * bodies that are not JSON, with and without a token. No answer may be a 5xx, and every
 * /api error is `{ error, code }`. A fixed seed and a fixed number of cases keep CI repeatable.
 */
describe('every route answers any input with a 4xx at worst (request fuzzing)', () => {
  let org: TestOrg;
  let sut: TestApp;
  let caller: FuzzCaller;
  let operations: Operation[];

  beforeAll(async () => {
    org = await startTestOrg({ users: 2, groups: 1, apps: 0, seed: 22 });
    sut = await startTestApp(org.env);
    const owner = await sut.newClient();
    const auth = { Authorization: `Bearer ${owner.token}` };
    const connectionId = await createConnection(sut, owner.token, {
      baseUrl: org.sim.baseUrl,
      clientId: org.integration.clientId,
      clientSecret: org.integration.clientSecret,
    });
    const backup = await runBackup(sut, owner.token, { connectionId });
    // The integration holds read scopes only: the restore fails at its first write, leaving a row.
    const restore = await sut.http
      .post('/api/restore')
      .set(auth)
      .send({ backupId: backup.id, mode: 'full' })
      .expect(202);
    caller = {
      token: owner.token,
      origin: sut.baseUrl,
      ids: [connectionId, backup.id, restore.body.restoreId as string],
    };
    const document = (await sut.http.get('/api/openapi.json').expect(200)).body;
    // Deletions last, so that the cases before them still find what they name.
    operations = [...operationsOf(document), ...BEYOND_OPENAPI].sort(
      (a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'),
    );
  });
  afterAll(async () => {
    await sut?.close();
    await org?.sim.close();
  });

  it('fuzzes every route of the app', () => {
    const fuzzed = new Set(operations.map((op) => `${op.method} ${op.path.replace(/\{(\w+)\}/g, ':$1')}`));
    const missing = nestRoutes(sut.app)
      .map((route) => `${route.method} ${route.path}`)
      .filter((route) => !fuzzed.has(route));
    expect(missing).toEqual([]);
  });

  it('answers no request with a 5xx, and every /api error in the { error, code } shape', async () => {
    const failures: string[] = [];
    for (const operation of operations) {
      const details = await fc.check(
        fc.asyncProperty(requestTo(operation, caller), (sent) => expectHandled(sut.baseUrl, sent)),
        { seed: SEED, numRuns: RUNS },
      );
      if (details.failed) failures.push(String(details.errorInstance));
    }
    expect(failures).toEqual([]);
  }, 300_000);

  /** The first of the caller's ids that GET on the operation's path finds, else the first. */
  async function idFoundBy(operation: Operation): Promise<string> {
    for (const id of caller.ids) {
      const response = await request(`${sut.baseUrl}${operation.path.replace(/\{\w+\}/g, id)}`, {
        headers: { Authorization: `Bearer ${caller.token}` },
      });
      await response.body.dump();
      if (response.statusCode === 200) return id;
    }
    return caller.ids[0];
  }

  it('answers no boundary value of any parameter or body field with a 5xx', async () => {
    const failures: string[] = [];
    for (const operation of operations) {
      for (const sent of boundaryRequests(operation, caller, await idFoundBy(operation))) {
        const failure = await expectHandled(sut.baseUrl, sent).catch((error: Error) => error.message);
        // The first failure of each route: the others are usually the same defect.
        if (failure) {
          failures.push(failure);
          break;
        }
      }
    }
    expect(failures).toEqual([]);
  }, 300_000);
});
