import { describe, expect, it } from '@jest/globals';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { runInNewContext } from 'node:vm';
import { scavengingEvery } from './scavenging.js';

async function* chunks(count: number, size: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < count; i++) yield Buffer.alloc(size, i % 256);
}

/** The young-generation collections V8 reports while `work` runs (perf_hooks 'gc' entries). */
async function scavengesDuring(work: () => Promise<void>): Promise<number> {
  let count = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if (
        (entry as unknown as { detail?: { kind?: number } }).detail?.kind ===
        constants.NODE_PERFORMANCE_GC_MINOR
      )
        count++;
  });
  observer.observe({ entryTypes: ['gc'] });
  await work();
  await new Promise((resolve) => setTimeout(resolve, 50)); // entries are delivered asynchronously
  observer.disconnect();
  return count;
}

describe('scavengingEvery', () => {
  it('passes every chunk on unchanged and in order', async () => {
    const seen: number[] = [];
    for await (const chunk of scavengingEvery(chunks(50, 1000), 4096)) seen.push(chunk[0], chunk.length);
    expect(seen).toEqual(Array.from({ length: 50 }, (_, i) => [i, 1000]).flat());
  });

  it('runs a scavenge after every interval of bytes', async () => {
    const minor = await scavengesDuring(async () => {
      // 64 MiB in 64 KiB chunks, a scavenge every 4 MiB: 16 of them.
      for await (const chunk of scavengingEvery(chunks(1024, 64 * 1024), 4 * 1024 * 1024))
        expect(chunk.length).toBe(64 * 1024);
    });
    expect(minor).toBeGreaterThanOrEqual(16);
  });

  it('leaves no gc function to contexts made afterwards', async () => {
    for await (const chunk of scavengingEvery(chunks(2, 10), 1)) expect(chunk.length).toBe(10);
    expect(runInNewContext('typeof gc')).toBe('undefined');
  });
});
