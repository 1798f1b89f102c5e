import { describe, expect, it } from '@jest/globals';
import { setTimeout as delay } from 'node:timers/promises';
import { inOrderConcurrent } from './in-order-concurrent.js';

describe('inOrderConcurrent', () => {
  it('yields every value in key order while running lanes concurrently', async () => {
    let running = 0;
    let peak = 0;
    async function* pages(key: number): AsyncGenerator<string> {
      for (let page = 0; page < 3; page++) {
        running++;
        peak = Math.max(peak, running);
        // Later keys answer faster, so only ordering by key keeps the output stable.
        await delay(10 - key);
        running--;
        yield `${key}.${page}`;
      }
    }
    const sut: string[] = [];
    for await (const value of inOrderConcurrent([1, 2, 3, 4, 5], pages, 3)) sut.push(value);
    expect(sut).toEqual([1, 2, 3, 4, 5].flatMap((key) => [0, 1, 2].map((page) => `${key}.${page}`)));
    expect(peak).toBe(3);
  });

  it('fetches at most one value ahead for lanes waiting their turn', async () => {
    const fetched: string[] = [];
    async function* pages(key: string): AsyncGenerator<string> {
      for (let page = 0; page < 5; page++) {
        fetched.push(`${key}.${page}`);
        yield `${key}.${page}`;
      }
    }
    const iterator = inOrderConcurrent(['a', 'b'], pages, 2);
    await iterator.next();
    await delay(5);
    expect(fetched).toEqual(['a.0', 'b.0', 'a.1']);
    await iterator.return(undefined);
  });

  it('throws a lane failure at its turn and closes the other lanes', async () => {
    const closed: string[] = [];
    async function* pages(key: string): AsyncGenerator<string> {
      try {
        if (key === 'bad') throw new Error('boom');
        yield key;
        await delay(50);
        yield `${key}.again`;
      } finally {
        closed.push(key);
      }
    }
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const value of inOrderConcurrent(['a', 'bad', 'c'], pages, 3)) seen.push(value);
      })(),
    ).rejects.toThrow('boom');
    expect(seen).toEqual(['a', 'a.again']);
    expect(closed.sort()).toEqual(['a', 'bad', 'c']);
  });
});
