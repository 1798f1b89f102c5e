import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { createConnection } from './support/backup-helpers.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';

/** What a 400 names: status, code and the first field of `details`. */
function refusal(response: { status: number; body: { code?: string; details?: Array<{ field?: string }> } }) {
  return [response.status, response.body.code, response.body.details?.[0]?.field];
}

/**
 * Inputs that once reached the database or the stack (docs/security.md "Request validation"): each answered
 * 500 (a PostgreSQL error or a stack overflow) and must now be a 400 naming the field, or a 415 for a body
 * that is not JSON.
 */
describe('bad input is a 4xx in the error shape, never a 500', () => {
  let org: TestOrg;
  let sut: TestApp;
  let admin: TestClient;
  let auth: { Authorization: string };
  let connectionId: string;

  beforeAll(async () => {
    org = await startTestOrg({ users: 1, groups: 1, apps: 0, seed: 22 });
    sut = await startTestApp(org.env);
    admin = await sut.newClient({ role: 'admin' });
    auth = { Authorization: `Bearer ${admin.token}` };
    connectionId = await createConnection(sut, admin.token, {
      baseUrl: org.sim.baseUrl,
      clientId: org.integration.clientId,
      clientSecret: org.integration.clientSecret,
    });
  });
  afterAll(async () => {
    await sut?.close();
    await org?.sim.close();
  });

  it('answers an offset beyond PostgreSQL bigint with 400 naming offset, on every paged list', async () => {
    const answers = [];
    for (const path of ['/api/backup/list', '/api/restore/history', `/api/restore/${randomUUID()}`]) {
      answers.push(refusal(await sut.http.get(`${path}?offset=100000000000000000000`).set(auth)));
    }
    expect(answers).toEqual(Array(3).fill([400, 'validation_failed', 'offset']));
  });

  it.each(['minSize', 'maxSize'])(
    'answers a %s beyond PostgreSQL bigint with 400 naming it',
    async (field) => {
      const response = await sut.http.get(`/api/backup/list?${field}=100000000000000000000`).set(auth);
      expect(refusal(response)).toEqual([400, 'validation_failed', field]);
    },
  );

  it.each([
    ['from', '-200000-01-01T00:00:00Z'],
    ['to', '+275760-09-13T00:00:00Z'],
  ])('answers a %s outside what PostgreSQL timestamptz holds with 400 naming it', async (field, value) => {
    const response = await sut.http
      .get('/api/backup/list')
      .query({ [field]: value })
      .set(auth);
    expect(refusal(response)).toEqual([400, 'validation_failed', field]);
  });

  it('accepts the extreme values it documents', async () => {
    const response = await sut.http
      .get('/api/backup/list')
      .query({
        connectionId,
        offset: Number.MAX_SAFE_INTEGER,
        minSize: 0,
        maxSize: Number.MAX_SAFE_INTEGER,
        from: '0001-01-01T00:00:00Z',
        to: '9999-12-31T23:59:59.999Z',
      })
      .set(auth);
    expect([response.status, response.body.backups]).toEqual([200, []]);
  });

  it('answers a NUL in a query parameter with 400 naming it', async () => {
    const response = await sut.http.get('/api/backup/list?search=a%00b').set(auth);
    expect(refusal(response)).toEqual([400, 'validation_failed', 'search']);
  });

  it('answers a NUL or a lone surrogate in a body field with 400 naming it, and stores nothing', async () => {
    const answers = [];
    for (const text of ['"a\\u0000b"', '"a\\ud800b"', '"a\\udc00"']) {
      const response = await sut.http
        .patch(`/api/connections/${connectionId}`)
        .set(auth)
        .set('Content-Type', 'application/json')
        .send(`{"org_name":${text}}`);
      answers.push(refusal(response));
    }
    expect(answers).toEqual(Array(3).fill([400, 'validation_failed', 'org_name']));
    const stored = await sut.http.get(`/api/connections/${connectionId}`).set(auth).expect(200);
    expect(stored.body.connection.org_name).toBe('Test org');
  });

  it('answers a NUL in a path segment with 400', async () => {
    const response = await sut.http.delete('/api/team/clients/a%00b').set(auth);
    expect(refusal(response)).toEqual([400, 'validation_failed', 'path']);
  });

  it('answers a JSON body nested 2,000 deep with 400 before authentication', async () => {
    const deep = `{"email":"x@y.example","x":${'['.repeat(2000)}${']'.repeat(2000)}}`;
    const answers = [];
    for (const path of ['/api/auth/send-code', '/api/backup/run']) {
      const response = await sut.http.post(path).set('Content-Type', 'application/json').send(deep);
      answers.push(refusal(response));
    }
    expect(answers).toEqual(Array(2).fill([400, 'validation_failed', 'body']));
  });

  it('does not count brackets inside strings as nesting', async () => {
    const response = await sut.http
      .post('/api/backup/run')
      .set(auth)
      .send({ connectionId, include: ['['.repeat(500), '{'.repeat(500)] });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(/resource type/i);
  });

  it.each([
    ['text/plain', '{"connectionId":"00000000-0000-4000-8000-000000000000"}'],
    ['application/x-www-form-urlencoded', 'connectionId=00000000-0000-4000-8000-000000000000'],
  ])('answers a %s body on a JSON route with 415', async (type, body) => {
    const response = await sut.http.post('/api/backup/run').set(auth).set('Content-Type', type).send(body);
    expect([response.status, response.body]).toEqual([
      415,
      {
        error: 'The body must be application/json',
        code: 'unsupported_media_type',
        requestId: expect.any(String),
      },
    ]);
  });

  it('answers JSON in a charset other than UTF-8 with 415 (RFC 8259 §8.1)', async () => {
    const response = await sut.http
      .post('/api/backup/run')
      .set(auth)
      .set('Content-Type', 'application/json; charset=utf-16le')
      .send(Buffer.from(JSON.stringify({ connectionId }), 'utf16le'));
    expect([response.status, response.body.code]).toEqual([415, 'unsupported_media_type']);
  });

  describe('at the authorization server, which parses its own requests', () => {
    it('answers a NUL in a client id with an OAuth error, not a 500', async () => {
      const response = await sut.http
        .post('/oauth/token')
        .type('form')
        .send({ grant_type: 'client_credentials', client_id: 'a\u0000b', client_secret: 'x' });
      expect([response.status, response.body.error]).toEqual([401, 'invalid_client']);
    });

    it('answers a NUL in registered client metadata with 400 invalid_request', async () => {
      const response = await sut.http
        .post('/oauth/register')
        .send({ client_name: 'a\u0000b', redirect_uris: ['https://app.example/cb'] });
      expect([response.status, response.body.error]).toEqual([400, 'invalid_request']);
    });

    it('answers a grant_types that is not a list with 400 invalid_client_metadata', async () => {
      const response = await sut.http
        .post('/oauth/register')
        .send({ grant_types: '', redirect_uris: ['https://app.example/cb'] });
      expect([response.status, response.body.error]).toEqual([400, 'invalid_client_metadata']);
    });
  });
});
