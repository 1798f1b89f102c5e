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
 * The reproductions of issue 22 section 2: each answered 500 (a PostgreSQL error or a stack
 * overflow) and must now be a 400 naming the field, or a 415 for a body that is not JSON.
 */
describe('bad input is a 4xx in the error shape, never a 500 (issue 22)', () => {
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
});
