import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import type { OnApplicationShutdown } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { Redis } from 'ioredis';
import type { Response } from 'supertest';
import { MemoryRateLimitStorage } from '@app/common/rate-limit/memory-rate-limit.storage.js';
import { RedisRateLimitStorage } from '@app/common/rate-limit/redis-rate-limit.storage.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';

const REDIS_URL = 'redis://127.0.0.1:6379';

/** A client address of its own per test, so every test starts with full budgets. */
let lastOctet = 0;
const nextClientIp = (): string => `198.51.100.${++lastOctet}`;

/** The spec's Limits section over HTTP: per IP, 60-second windows, 429 with Retry-After and the RateLimit fields. */
describe('rate limits (HTTP, real PostgreSQL, memory and Redis counters)', () => {
  /** Behind one trusted proxy: X-Forwarded-For names the client. */
  let sut: TestApp;
  let operator: TestClient;

  beforeAll(async () => {
    sut = await startTestApp({ RATE_LIMITS: 'on', TRUST_PROXY_HOPS: '1' });
    operator = await sut.newClient({ role: 'operator' });
  });
  afterAll(async () => {
    await sut?.close();
  });

  const health = (app: TestApp, ip: string) => app.http.get('/api/health').set('X-Forwarded-For', ip);
  const quota = (response: Response) => ({
    status: response.status,
    limit: response.headers['ratelimit-limit'],
    remaining: response.headers['ratelimit-remaining'],
  });

  function expectRateLimited(response: Response, windowSeconds = 60): void {
    expect(response.status).toBe(429);
    expect(response.body).toEqual({
      error: expect.stringMatching(/^Too many requests; retry in \d+ s$/),
      code: 'rate_limited',
      requestId: expect.any(String),
    });
    const retryAfter = Number(response.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
    expect(response.headers['ratelimit-remaining']).toBe('0');
  }

  it('allows 120 /api requests per minute per IP, counting down in the RateLimit fields, then answers 429', async () => {
    const ip = nextClientIp();
    for (let sent = 1; sent <= 120; sent += 1) {
      const response = await health(sut, ip);
      expect(quota(response)).toEqual({ status: 200, limit: '120', remaining: String(120 - sent) });
    }
    const last = await health(sut, ip);
    expectRateLimited(last);
    expect(last.headers['ratelimit-policy']).toBe('120;w=60');
    expect(Number(last.headers['ratelimit-reset'])).toBe(Number(last.headers['retry-after']));
    // Another client is not affected.
    expect((await health(sut, nextClientIp())).status).toBe(200);
  });

  it('counts requests before authentication: a flood without a token ends in 429, not 401', async () => {
    const ip = nextClientIp();
    for (let sent = 1; sent <= 120; sent += 1) {
      expect((await sut.http.get('/api/backup/list').set('X-Forwarded-For', ip)).status).toBe(401);
    }
    expectRateLimited(await sut.http.get('/api/backup/list').set('X-Forwarded-For', ip));
  });

  it("gives the MCP endpoint the API's budget in a counter of its own, counted before authentication", async () => {
    const ip = nextClientIp();
    const mcp = () =>
      fetch(`${sut.baseUrl}/mcp`, {
        method: 'POST',
        headers: {
          'x-forwarded-for': ip,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    for (let sent = 1; sent <= 120; sent += 1) {
      const response = await mcp();
      expect([response.status, response.headers.get('ratelimit-remaining')]).toEqual([
        401,
        String(120 - sent),
      ]);
    }
    const last = await mcp();
    expect([last.status, last.headers.get('ratelimit-remaining')]).toEqual([429, '0']);
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // The API's counter for the same client is untouched.
    expect(quota(await health(sut, ip))).toEqual({ status: 200, limit: '120', remaining: '119' });
  });

  it('allows 10 backup runs per minute, advertising the tighter limit, while other routes keep their own budget', async () => {
    const ip = nextClientIp();
    const run = () =>
      sut.http
        .post('/api/backup/run')
        .set('X-Forwarded-For', ip)
        .set('Authorization', `Bearer ${operator.token}`)
        .send({});
    for (let sent = 1; sent <= 10; sent += 1) {
      const response = await run();
      // Refused by validation, yet counted: the limit applies before anything else.
      expect(quota(response)).toEqual({ status: 400, limit: '10', remaining: String(10 - sent) });
      expect(response.headers['ratelimit-policy']).toBe('10;w=60, 120;w=60');
    }
    expectRateLimited(await run());
    const list = await sut.http
      .get('/api/backup/list')
      .set('X-Forwarded-For', ip)
      .set('Authorization', `Bearer ${operator.token}`);
    expect(quota(list)).toEqual({ status: 200, limit: '120', remaining: String(120 - 12) });
  });

  it('allows 20 sign-in code requests per minute across both code endpoints', async () => {
    const ip = nextClientIp();
    const codeRequest = (sent: number) =>
      sut.http
        .post(sent % 2 === 0 ? '/api/auth/send-code' : '/api/auth/verify-code')
        .set('X-Forwarded-For', ip)
        // A new address each time, so the per-address code budget never answers first.
        .send({ email: `rate-${ip}-${sent}@example.com`, ...(sent % 2 === 0 ? {} : { code: '000000' }) });
    for (let sent = 1; sent <= 20; sent += 1) {
      const response = await codeRequest(sent);
      expect([response.status === 429, response.headers['ratelimit-limit']]).toEqual([false, '20']);
      expect(response.headers['ratelimit-remaining']).toBe(String(20 - sent));
      expect(response.headers['ratelimit-policy']).toBe('20;w=60, 120;w=60');
    }
    expectRateLimited(await codeRequest(21));
  });

  it('takes the client from X-Forwarded-For only as far as the trusted proxies go', async () => {
    const ip = nextClientIp();
    // The client forged an entry on the left; the one trusted proxy appended the real address.
    for (let sent = 1; sent <= 120; sent += 1) {
      const forged = `203.0.113.${sent}, ${ip}`;
      expect((await health(sut, forged)).status).toBe(200);
    }
    expectRateLimited(await health(sut, `203.0.113.250, ${ip}`));
  });

  it('never limits routes outside /api/', async () => {
    const response = await sut.http.get('/.well-known/oauth-protected-resource');
    expect(response.status).toBe(200);
    expect(response.headers['ratelimit-limit']).toBeUndefined();
  });

  describe('without trusted proxies (the default)', () => {
    let direct: TestApp;
    beforeAll(async () => {
      direct = await startTestApp({ RATE_LIMITS: 'on' });
    });
    afterAll(async () => {
      await direct?.close();
    });

    it('ignores X-Forwarded-For: the socket address is the client', async () => {
      for (let sent = 1; sent <= 120; sent += 1) {
        expect((await health(direct, nextClientIp())).status).toBe(200);
      }
      expectRateLimited(await health(direct, nextClientIp()));
    });
  });

  describe('with REDIS_URL', () => {
    const prefix = `idp-backup-test:${randomBytes(6).toString('hex')}:`;
    let redis: Redis;
    let replicaA: TestApp;
    let replicaB: TestApp;

    beforeAll(async () => {
      redis = new Redis(REDIS_URL);
      const env = { RATE_LIMITS: 'on', TRUST_PROXY_HOPS: '1', REDIS_URL, RATE_LIMIT_KEY_PREFIX: prefix };
      replicaA = await startTestApp(env);
      replicaB = await startTestApp(env);
    });
    afterAll(async () => {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
      await replicaA?.close();
      await replicaB?.close();
    });

    it('shares one budget across replicas, in keys that expire with the window', async () => {
      const ip = nextClientIp();
      for (let sent = 1; sent <= 120; sent += 1) {
        const response = await health(sent % 2 === 0 ? replicaA : replicaB, ip);
        expect(quota(response)).toEqual({ status: 200, limit: '120', remaining: String(120 - sent) });
      }
      expectRateLimited(await health(replicaA, ip));
      expectRateLimited(await health(replicaB, ip));
      const ttl = await redis.pttl(`${prefix}api:${ip}`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
      expect(await redis.get(`${prefix}api:${ip}`)).toBe('122');
    });
  });

  describe('when Redis is unreachable', () => {
    let orphan: TestApp;
    beforeAll(async () => {
      orphan = await startTestApp({ RATE_LIMITS: 'on', REDIS_URL: 'redis://127.0.0.1:1' });
    });
    afterAll(async () => {
      await orphan?.close();
    });

    it('lets requests through rather than failing the API', async () => {
      const response = await orphan.http.get('/api/health');
      expect(response.status).toBe(200);
      expect(response.headers['ratelimit-limit']).toBeUndefined();
    });
  });

  describe('fixed windows', () => {
    const prefix = `idp-backup-test:${randomBytes(6).toString('hex')}:`;
    const storages: Record<'memory' | 'redis', ThrottlerStorage & OnApplicationShutdown> = {
      memory: new MemoryRateLimitStorage(),
      redis: new RedisRateLimitStorage(REDIS_URL, prefix),
    };
    afterAll(async () => {
      await storages.memory.onApplicationShutdown();
      await storages.redis.onApplicationShutdown();
    });

    it.each(Object.keys(storages) as Array<keyof typeof storages>)(
      '%s: blocks past the limit until the window ends, then counts afresh',
      async (kind) => {
        const storage = storages[kind];
        const windowMs = 300;
        const hit = () => storage.increment('k', windowMs, 2, windowMs, 'test');
        expect(await hit()).toMatchObject({ totalHits: 1, isBlocked: false, timeToBlockExpire: 0 });
        expect(await hit()).toMatchObject({ totalHits: 2, isBlocked: false });
        expect(await hit()).toMatchObject({ totalHits: 3, isBlocked: true, timeToBlockExpire: 1 });
        await new Promise((resolve) => setTimeout(resolve, windowMs + 50));
        expect(await hit()).toMatchObject({ totalHits: 1, isBlocked: false });
      },
    );
  });
});
