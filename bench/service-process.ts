import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { freePort } from '@app/platform/bootstrap/free-port.js';
import { SERVICE_ENV, SERVICE_NODE_FLAGS } from '@app/platform/bootstrap/node-flags.js';

/** The built service running in its own process, so that its memory is measured alone. */
export interface ServiceProcess {
  baseUrl: string;
  /** the process id (of the API's process with `roles: 'split'`) */
  pid: number;
  env: Record<string, string>;
  /** Peak resident set size of the service process so far, MB (Linux VmHWM). */
  peakRssMb(): number;
  /** Resets the peak to the current resident set size (Linux clear_refs 5), so a phase's own peak can be read. */
  resetPeakRss(): void;
  /**
   * How far the V8 heap in use rose above where the last collection before `resetHeapPeak` left
   * it, MB: the highest heap in use that a collection found since then (`--trace-gc`'s "before"
   * figure). Only with `traceGc`; undefined when no collection ran since.
   */
  heapGrowthMb(): number | undefined;
  resetHeapPeak(): void;
  /**
   * Memory of the processes the service started (Chromium's browser, renderers, GPU and utility
   * processes), MB: their resident sets summed (`rss`, which counts pages they share once per
   * process) and their proportional set sizes summed (`pss`, shared pages split between their
   * sharers: what they use together). Linux /proc/PID/smaps_rollup of every descendant.
   */
  childrenMemoryMb(): { rss: number; pss: number };
  /** CPU time the service process has used so far, every thread, user and system, seconds (Linux). */
  cpuSeconds(): number;
  /**
   * Resolves once the service has used less than 20 ms of CPU in each of two half-seconds (up to
   * 60 s): background jobs a phase left queued (drift alerts after backups) are done, so they
   * do not run inside the next measured phase.
   */
  settle(): Promise<void>;
  /** Runs the admin CLI against the same database and returns its JSON line. */
  cli(args: string[]): Promise<Record<string, string>>;
  stop(): Promise<void>;
}

export interface ServiceProcessOptions {
  /** the service writes a V8 CPU profile there when it stops */
  cpuProfileDir?: string;
  /** runs the service with `--trace-gc` and reads its lines, for `heapGrowthMb` */
  traceGc?: boolean;
  /**
   * `all` (the default): one process serves the API and works the jobs. `split`: the service
   * serves the API only (`ROLE=api`) and a second process on the same settings works the jobs
   * (`ROLE=worker`), as README "Production" deploys them; the figures above are the API's.
   */
  roles?: 'all' | 'split';
}

/**
 * Starts `dist/src/main.js` as production does (SERVICE_NODE_FLAGS, SERVICE_ENV) with `env` on a free port and
 * waits for /api/health.
 */
export async function startServiceProcess(
  env: Record<string, string>,
  options: ServiceProcessOptions = {},
): Promise<ServiceProcess> {
  const port = await freePort();
  const roles = options.roles ?? 'all';
  const fullEnv = {
    ...env,
    PORT: String(port),
    BASE_URL: `http://127.0.0.1:${port}`,
    ...(roles === 'split' ? { ROLE: 'api' } : {}),
  };
  const nodeArgs = [
    ...SERVICE_NODE_FLAGS,
    ...(options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`] : []),
    ...(options.traceGc ? ['--trace-gc'] : []),
  ];
  const child = spawn(process.execPath, [...nodeArgs, 'dist/src/main.js'], {
    env: { ...process.env, ...SERVICE_ENV, ...fullEnv },
    stdio: ['ignore', options.traceGc ? 'pipe' : 'ignore', 'inherit'],
  });
  const heap = new HeapWatch();
  if (options.traceGc) createInterface({ input: child.stdout! }).on('line', (line) => heap.read(line));
  const baseUrl = fullEnv.BASE_URL;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}`);
    const healthy = await fetch(`${baseUrl}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (healthy) break;
    if (Date.now() > deadline) throw new Error('service did not become healthy in 60 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  // Started once the API's process has set up the database: the worker joins it.
  const worker = roles === 'split' ? await startWorker({ ...fullEnv, ROLE: 'worker' }) : undefined;
  return {
    baseUrl,
    pid: child.pid!,
    env: fullEnv,
    peakRssMb: () => peakRss(child),
    resetPeakRss: () => writeFileSync(`/proc/${child.pid}/clear_refs`, '5'),
    heapGrowthMb: () => heap.growthMb(),
    resetHeapPeak: () => heap.reset(),
    childrenMemoryMb: () => descendantsMemoryMb(child.pid!),
    cpuSeconds: () => cpuSeconds(child),
    settle: () => settle(child),
    cli: (args) => runCli(args, fullEnv),
    stop: async () => {
      if (worker) await stop(worker);
      await stop(child);
    },
  };
}

/** What src/main.ts logs once a `worker` process works jobs. */
const WORKER_READY = 'Worker started';

/** Starts `dist/src/main.js` as a jobs-only process and waits until it logs that it works jobs. */
async function startWorker(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, 'dist/src/main.js'], {
    env: { ...process.env, ...SERVICE_ENV, ...env, LOG_LEVEL: 'log' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the worker did not start in 60 s')), 60_000);
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (!line.includes(WORKER_READY)) return;
      clearTimeout(timer);
      resolve();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the worker exited with ${code} before it started`));
    });
  });
  return child;
}

/**
 * The V8 heap in use as `--trace-gc` reports it: each collection's line gives the heap in use
 * before and after it, MB (`... ms: Scavenge 52.1 (60.3) -> 48.0 (61.3) MB, ...`).
 */
class HeapWatch {
  private static readonly LINE = /ms: [A-Za-z (),-]*?([\d.]+) \([\d.]+\) -> ([\d.]+) \([\d.]+\) MB/;
  private lastAfter = 0;
  private base = 0;
  private peak: number | undefined;

  read(line: string): void {
    const match = HeapWatch.LINE.exec(line);
    if (!match) return;
    this.peak = Math.max(this.peak ?? 0, Number(match[1]));
    this.lastAfter = Number(match[2]);
  }

  reset(): void {
    this.base = this.lastAfter;
    this.peak = undefined;
  }

  growthMb(): number | undefined {
    return this.peak === undefined ? undefined : Math.round(Math.max(0, this.peak - this.base));
  }
}

function peakRss(child: ChildProcess): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/** Rss and Pss of every process below `pid` (found through /proc/PID/stat's parent field), summed, MB. */
function descendantsMemoryMb(pid: number): { rss: number; pss: number } {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // The process ended while being read.
    }
  }
  const below = new Set([pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [child, parent] of parents)
      if (below.has(parent) && !below.has(child)) {
        below.add(child);
        grew = true;
      }
  }
  below.delete(pid);
  let rss = 0;
  let pss = 0;
  for (const child of below) {
    try {
      const rollup = readFileSync(`/proc/${child}/smaps_rollup`, 'utf8');
      rss += Number(/^Rss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0);
      pss += Number(/^Pss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0);
    } catch {
      // The process ended while being read.
    }
  }
  return { rss: Math.round(rss / 1024), pss: Math.round(pss / 1024) };
}

async function settle(child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  let quiet = 0;
  let last = cpuSeconds(child);
  while (quiet < 2 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = cpuSeconds(child);
    quiet = now - last < 0.02 ? quiet + 1 : 0;
    last = now;
  }
}

/** utime + stime of /proc/PID/stat (fields 14 and 15, in clock ticks of 1/100 s on Linux). */
function cpuSeconds(child: ChildProcess): number {
  const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
  // The command name (field 2) is in parentheses and may hold spaces: count from after it.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function runCli(args: string[], env: Record<string, string>): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['dist/tools/cli/cli.js', ...args], {
      env: { ...process.env, ...env, LOG_LEVEL: 'error' },
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split('\n').pop()!) as Record<string, string>)
        : reject(new Error(`cli ${args[0]} exited ${code}`)),
    );
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
