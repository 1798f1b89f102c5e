import { readFileSync, readdirSync } from 'node:fs';

/**
 * The threads of a Node service by what Linux names them (`/proc/PID/task/TID/comm`, which Node 24
 * and V8 set): the JavaScript main thread, the page encoder's worker threads (Piscina), libuv's
 * thread pool (zlib, file system, crypto jobs) and V8's helper threads (concurrent marking,
 * sweeping, compiling).
 */
export type ThreadKind = 'main' | 'page_worker' | 'thread_pool' | 'v8_helpers' | 'other';

const KINDS: ReadonlyArray<[string, ThreadKind]> = [
  ['MainThread', 'main'],
  ['WorkerThread', 'page_worker'],
  ['libuv-worker', 'thread_pool'],
  ['V8Worker', 'v8_helpers'],
];

/** CPU seconds (user + system) each thread of `pid` has used so far, by thread id. */
export type ThreadCpu = Map<number, { kind: ThreadKind; seconds: number }>;

/** Reads every thread of `pid` (Linux `/proc/PID/task/TID/stat` fields 14 and 15, 1/100 s ticks). */
export function readThreadCpu(pid: number): ThreadCpu {
  const threads: ThreadCpu = new Map();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const kind = KINDS.find(([prefix]) => name.startsWith(prefix))?.[1] ?? 'other';
      threads.set(Number(tid), { kind, seconds: (Number(fields[11]) + Number(fields[12])) / 100 });
    } catch {
      // The thread ended while being read.
    }
  }
  return threads;
}

/**
 * CPU seconds each kind of thread used between two reads; a thread that started in between counts
 * from zero. A thread that ended in between is lost (the page workers end 30 s after their last
 * page, so read `after` as soon as the measured work ends).
 */
export function cpuByKind(before: ThreadCpu, after: ThreadCpu): Record<ThreadKind, number> {
  const used: Record<ThreadKind, number> = {
    main: 0,
    page_worker: 0,
    thread_pool: 0,
    v8_helpers: 0,
    other: 0,
  };
  for (const [tid, { kind, seconds }] of after) used[kind] += seconds - (before.get(tid)?.seconds ?? 0);
  return used;
}
