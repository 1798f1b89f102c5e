import { afterEach, describe, expect, it } from '@jest/globals';

import { startSimulator } from '@libs/simulators/okta/index.js';
import type { RunningSimulator } from '@libs/simulators/okta/simulator-options.js';
import { SimulatorClient } from '@libs/simulators/okta/testing/simulator-client.js';
import { type FaultOptions, FaultInjector } from '@libs/simulators/kit/http/faults.js';

describe('FaultInjector', () => {
  it('draws faults at the configured rates, repeatably for a seed', () => {
    const draw = (options: FaultOptions) => {
      const sut = new FaultInjector(options);
      return Array.from({ length: 1000 }, () => sut.next());
    };
    const options = { errorRate: 0.1, dropRate: 0.05, truncateRate: 0.05, seed: 9 };
    const faults = draw(options);
    expect(draw(options)).toEqual(faults);
    const share = (fault: string) => faults.filter((f) => f === fault).length / faults.length;
    expect(share('error')).toBeCloseTo(0.1, 1);
    expect(share('drop')).toBeCloseTo(0.05, 1);
    expect(share('none')).toBeCloseTo(0.8, 1);
    expect(draw({})).toEqual(Array(1000).fill('none'));
  });
});

describe('FaultInjector bursts of 429s', () => {
  it("throttles every request of the bucket for a second after a burst starts, and no other bucket's", () => {
    const sut = new FaultInjector({ throttleRate: 1, seed: 3 });
    const t0 = 1_800_000_000_000;
    expect(sut.next('GET /api/v1/users', t0)).toBe('throttle');
    expect(sut.burstResetSeconds('GET /api/v1/users')).toBe(Math.ceil((t0 + 1000) / 1000));
    sut.configure({});
    expect(sut.next('GET /api/v1/users', t0 + 999)).toBe('throttle');
    expect(sut.next('GET /api/v1/groups', t0 + 999)).toBe('none');
    sut.configure({ throttleRate: 1 });
    expect(sut.next('GET /api/v1/users', t0 + 1000)).toBe('none'); // just reset: full again
    expect(sut.next('GET /api/v1/users', t0 + 2000)).toBe('throttle');
  });
});

describe('faults over HTTPS', () => {
  let sut: RunningSimulator | undefined;
  let client: SimulatorClient | undefined;

  const start = async (faults: FaultOptions) => {
    sut = await startSimulator({ users: 3, faults });
    client = new SimulatorClient(sut);
    return client;
  };

  afterEach(async () => {
    await client?.close();
    await sut?.close();
  });

  it('answers 500 E0000009 at errorRate 1', async () => {
    const response = await (await start({ errorRate: 1 })).call('GET', '/api/v1/users');
    expect(response.status).toBe(500);
    expect(response.body).toMatchObject({ errorCode: 'E0000009', errorSummary: 'Internal Server Error' });
  });

  it('drops the connection at dropRate 1', async () => {
    await expect((await start({ dropRate: 1 })).call('GET', '/api/v1/users')).rejects.toThrow();
  });

  it('cuts the body short at truncateRate 1', async () => {
    await expect((await start({ truncateRate: 1 })).call('GET', '/api/v1/users')).rejects.toThrow();
  });

  it('delays every answer by latencyMs', async () => {
    const c = await start({ latencyMs: 150 });
    const started = performance.now();
    expect((await c.call('GET', '/api/v1/users')).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(145);
  });
});
