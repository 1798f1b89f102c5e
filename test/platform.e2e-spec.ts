import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';

describe('health, OpenAPI document and the error shape', () => {
  let ctx: TestApp;
  let admin: TestClient;

  beforeAll(async () => {
    ctx = await startTestApp();
    admin = await ctx.newClient({ role: 'admin' });
  });

  afterAll(async () => {
    await ctx?.close();
  });

  it('answers the health probe without authentication', async () => {
    const response = await ctx.http.get('/api/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok', uptime: expect.any(Number), version: '0.1.0' });
  });

  it('publishes an OpenAPI 3.1 document naming the routes and their bearer security', async () => {
    const response = await ctx.http.get('/api/openapi.json');
    expect(response.status).toBe(200);
    expect(response.body.openapi).toBe('3.1.0');
    for (const path of [
      '/api/backup/run',
      '/api/backup/list',
      '/api/backup/{id}',
      '/api/connections/create',
      '/api/health',
    ]) {
      expect(response.body.paths).toHaveProperty([path]);
    }
    expect(response.body.paths['/api/backup/run'].post.security).toEqual([
      { bearer: [] },
      { oauth2: ['api'] },
    ]);
    expect(response.body.paths['/api/backup/run'].post['x-required-permission']).toBe('run backups');
  });

  it('answers malformed JSON with 400 in the error shape', async () => {
    const response = await ctx.http
      .post('/api/backup/run')
      .set('Authorization', `Bearer ${admin.token}`)
      .set('Content-Type', 'application/json')
      .send('{"connectionId": ');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: 'Malformed JSON body',
      code: 'validation_failed',
      requestId: expect.any(String),
    });
    expect(response.headers['x-request-id']).toBe(response.body.requestId);
  });

  it('answers an oversized body with 400 validation_failed', async () => {
    const response = await ctx.http
      .post('/api/connections/create')
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ org_url: 'https://acme.okta.com', client_id: 'x', client_secret: 'y'.repeat(200_000) });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('validation_failed');
    expect(response.body.details).toEqual([{ field: 'body', message: 'larger than 100 KB' }]);
  });

  it('answers an unknown route with 404 and a malformed id with 400, both in the error shape', async () => {
    const auth = { Authorization: `Bearer ${admin.token}` };
    const unknown = await ctx.http.get('/api/nothing-here').set(auth);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error: expect.any(String), code: 'not_found' });
    const badId = await ctx.http.get('/api/backup/not-a-uuid').set(auth);
    expect(badId.status).toBe(400);
    expect(badId.body).toMatchObject({ code: 'validation_failed' });
    const missingQuery = await ctx.http.get('/api/backup/status').set(auth);
    expect(missingQuery.status).toBe(400);
    expect(missingQuery.body.details).toEqual([{ field: 'backupId', message: 'backupId must be a UUID' }]);
  });
});
