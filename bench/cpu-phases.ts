import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ThreadKind } from './thread-cpu.js';

/** Where a backup's service CPU goes (docs/benchmarks/backup.md "Per-phase CPU"). */
export type Phase =
  | 'fetch_parse'
  | 'encode'
  | 'snapshot_write'
  | 'object_store'
  | 'database'
  | 'gc'
  | 'thread_pool'
  | 'v8_helpers'
  | 'other'
  | 'other_threads';

/** A V8 CPU profile (`node --cpu-prof`, Chrome DevTools Protocol `Profiler.Profile`). */
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string }; children?: number[] }[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/**
 * A frame's phase by its script, from the leaf up; the first match names the sample's phase.
 * Sockets (`node:net`, `node:tls`) are both Okta's and PostgreSQL's, so they only count when no
 * frame above them names a caller.
 */
const BY_URL: ReadonlyArray<[RegExp, Phase]> = [
  [/node_modules\/(pg|pg-protocol|pg-pool|typeorm)\//, 'database'],
  [/libs\/object-store\/|node:internal\/fs\//, 'object_store'],
  [/libs\/snapshot\/|node:zlib/, 'snapshot_write'],
  [/node_modules\/piscina\/|page-encoder-pool|page-worker-task/, 'encode'],
  [/node_modules\/undici\/|libs\/providers\//, 'fetch_parse'],
];
const SOCKETS = /node:net|node:_tls|node:internal\/tls|node:internal\/stream_base/;
/** On a page worker: the page body's decoding and JSON.parse (okta-api-client's parseJson). */
const WORKER_PARSE = /^(parseJson|parseArray|decode)$/;

const IDLE = new Set(['(idle)', '(program)', 'atomicsWaitLoop', '(root)']);

/**
 * Splits the main thread's and the page workers' CPU into phases by their CPU profiles' samples
 * between `fromUs` and `toUs` (CLOCK_MONOTONIC microseconds, as `process.hrtime`): each thread's
 * measured CPU seconds shared out in proportion to its busy samples. The thread pool and V8's
 * helpers are phases of their own (gzip and file writes; concurrent marking and compiling), and
 * so are the process's other threads (the profiler's own, when profiling). `other` is the main
 * thread's work outside the backup's pipeline (API requests, jobs, timers).
 * Samples are taken on a wall-clock timer, so on a loaded machine a sample stands for time the
 * thread also waited for a core: the shares are estimates, the seconds per thread are measured.
 * @param dir where the service wrote its profiles (`--cpu-prof-dir`)
 * @param pid the service process (profile files are named `CPU.<date>.<time>.<pid>.<thread>.<n>`)
 */
export function cpuPhases(
  dir: string,
  pid: number,
  fromUs: number,
  toUs: number,
  cpu: Record<ThreadKind, number>,
): Record<Phase, number> {
  const phases: Record<Phase, number> = {
    fetch_parse: 0,
    encode: 0,
    snapshot_write: 0,
    object_store: 0,
    database: 0,
    gc: 0,
    thread_pool: cpu.thread_pool,
    v8_helpers: cpu.v8_helpers,
    other: 0,
    other_threads: cpu.other,
  };
  const files = readdirSync(dir).filter((name) => name.split('.')[3] === String(pid));
  const shares = { main: new Map<Phase, number>(), page_worker: new Map<Phase, number>() };
  for (const file of files) {
    const thread = file.split('.')[4] === '0' ? 'main' : 'page_worker';
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
    for (const [phase, count] of samplePhases(profile, thread, fromUs, toUs))
      shares[thread].set(phase, (shares[thread].get(phase) ?? 0) + count);
  }
  for (const thread of ['main', 'page_worker'] as const) {
    const busy = [...shares[thread].values()].reduce((sum, count) => sum + count, 0);
    for (const [phase, count] of shares[thread])
      phases[phase] += busy === 0 ? 0 : (cpu[thread] * count) / busy;
  }
  return phases;
}

/** Busy samples of one thread's profile in the window, by phase. */
function samplePhases(
  profile: CpuProfile,
  thread: 'main' | 'page_worker',
  fromUs: number,
  toUs: number,
): Map<Phase, number> {
  const parent = new Map<number, number>();
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const phaseOf = new Map<number, Phase | null>();
  const classify = (id: number): Phase | null => {
    const leaf = byId.get(id)!.callFrame.functionName;
    if (IDLE.has(leaf)) return null;
    if (leaf === '(garbage collector)') return 'gc';
    let socket = false;
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const { functionName, url } = byId.get(at)!.callFrame;
      if (thread === 'page_worker') {
        if (WORKER_PARSE.test(functionName)) return 'fetch_parse';
        continue;
      }
      const match = BY_URL.find(([pattern]) => pattern.test(url));
      if (match) return match[1];
      socket ||= SOCKETS.test(url);
    }
    if (thread === 'page_worker') return 'encode';
    return socket ? 'fetch_parse' : 'other';
  };
  const counts = new Map<Phase, number>();
  let time = profile.startTime;
  profile.samples.forEach((id, index) => {
    time += profile.timeDeltas[index];
    if (time < fromUs || time > toUs) return;
    if (!phaseOf.has(id)) phaseOf.set(id, classify(id));
    const phase = phaseOf.get(id);
    if (phase) counts.set(phase, (counts.get(phase) ?? 0) + 1);
  });
  return counts;
}
