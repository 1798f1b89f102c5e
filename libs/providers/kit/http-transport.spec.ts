import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Agent } from 'undici';
import { ProviderHostNotAllowedError } from '@libs/providers/provider-errors.js';
import { type LoopbackHttps, startLoopbackHttps } from '@libs/simulators/kit/tls/loopback-https.js';
import { ConnectorStatsRecorder } from './connector-stats.js';
import { HttpTransport } from './http-transport.js';
import { RateLimitGovernor } from './rate-limit-governor.js';
import { retryAfterSignal } from './retry-after.js';

/**
 * The transport against a loopback HTTPS server that throttles as Microsoft Graph does
 * (learn.microsoft.com/graph/throttling: 429 with a fractional `Retry-After`, or none on the
 * conditional access endpoints, ../shared/research/workflows-entra.md §2.4), and a 503 with
 * `Retry-After` in seconds (RFC 9110 §15.6.4).
 */
describe('HttpTransport with the Retry-After signal', () => {
  let server: LoopbackHttps;
  let origin: string;
  let agent: Agent;
  /** Per path: the answers still to give, in order; then 200. */
  const script = new Map<string, Array<{ status: number; headers: Record<string, string> }>>();
  const arrivals: Array<{ path: string; atMs: number }> = [];

  beforeAll(async () => {
    server = await startLoopbackHttps((req: IncomingMessage, res: ServerResponse) => {
      const path = req.url ?? '/';
      arrivals.push({ path, atMs: Date.now() });
      const next = script.get(path)?.shift() ?? { status: 200, headers: {} };
      res.writeHead(next.status, { 'content-type': 'application/json', ...next.headers });
      res.end(next.status === 200 ? '{"value":[]}' : '{"error":{"code":"TooManyRequests"}}');
    });
    ({ origin, agent } = server);
  });

  afterAll(() => server?.close());

  function transport(stats = new ConnectorStatsRecorder()): HttpTransport {
    const governor = new RateLimitGovernor({
      signals: [retryAfterSignal],
      maxConcurrency: 2,
      headroom: 0.2,
      maxAttempts: 3,
      baseDelayMs: 1,
      maxDelayMs: 1,
      resetJitterMs: 0,
    });
    return new HttpTransport({
      provider: 'Graph',
      origin,
      allowedHosts: ['127.0.0.1'],
      dispatcher: agent,
      governor,
      stats,
      userAgent: 'kit-spec',
    });
  }

  const get = (sut: HttpTransport, path: string) =>
    sut.send({ method: 'GET', url: new URL(path, origin), template: path, headers: {}, idempotent: true });

  const gapMs = (path: string) => {
    const times = arrivals.filter((arrival) => arrival.path === path).map((arrival) => arrival.atMs);
    return times[1] - times[0];
  };

  it('waits as a 429 says in fractional seconds, then sends again', async () => {
    script.set('/v1.0/users', [{ status: 429, headers: { 'retry-after': '0.25' } }]);
    const stats = new ConnectorStatsRecorder();
    const response = await get(transport(stats), '/v1.0/users');
    expect(response.status).toBe(200);
    expect(stats.snapshot()).toMatchObject({ requests: 2, status429: 1, retries: 1 });
    expect(gapMs('/v1.0/users')).toBeGreaterThanOrEqual(240);
  });

  it('waits as a 503 says in seconds', async () => {
    script.set('/v1.0/groups', [{ status: 503, headers: { 'retry-after': '1' } }]);
    const response = await get(transport(), '/v1.0/groups');
    expect(response.status).toBe(200);
    expect(gapMs('/v1.0/groups')).toBeGreaterThanOrEqual(990);
  });

  it('backs off on 429s without Retry-After apart from the attempts kept for failures, and hands the last one back after 10 retries', async () => {
    const throttled = { status: 429, headers: {} };
    script.set('/v1.0/identity/conditionalAccess/policies', [throttled, throttled, throttled]);
    const stats = new ConnectorStatsRecorder();
    const passed = await get(transport(stats), '/v1.0/identity/conditionalAccess/policies');
    expect(passed.status).toBe(200); // three 429s, more than maxAttempts, then an answer
    expect(stats.snapshot()).toMatchObject({ requests: 4, status429: 3, retries: 3 });

    script.set('/v1.0/groups', Array(11).fill(throttled));
    const spent = new ConnectorStatsRecorder();
    const refused = await get(transport(spent), '/v1.0/groups');
    expect(refused.status).toBe(429);
    expect(spent.snapshot()).toMatchObject({ requests: 11, status429: 11, retries: 10 });
  });

  it('refuses a URL off the tenant before sending it', async () => {
    const before = arrivals.length;
    await expect(
      transport().send({
        method: 'GET',
        url: new URL('https://graph.microsoft.com/v1.0/users'),
        template: '/v1.0/users',
        headers: {},
        idempotent: true,
      }),
    ).rejects.toBeInstanceOf(ProviderHostNotAllowedError);
    expect(arrivals.length).toBe(before);
  });
});
