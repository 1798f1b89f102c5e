import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

/** Clock ticks a second of /proc/<pid>/stat's times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * utime, stime, cutime and cstime of one process, in ticks (proc(5), fields 14 to 17), with its
 * parent's pid; null once it has exited.
 */
function processTimes(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), ticks: fields.slice(11, 15).map(Number) };
  } catch {
    return null;
  }
}

/**
 * CPU seconds of every process below this one (Jest's worker, what it started, the embedded
 * PostgreSQL and its backends), each with its reaped children's, plus the reaped children of this
 * process (a replaced worker); this process's own time (Jest's scheduling, the reporters) is left out.
 */
function descendantsCpuSeconds() {
  const children = new Map();
  const times = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const found = processTimes(entry);
    if (!found) continue;
    times.set(Number(entry), found.ticks);
    children.set(found.ppid, [...(children.get(found.ppid) ?? []), Number(entry)]);
  }
  const [, , ownChildrenUser, ownChildrenSystem] = times.get(process.pid) ?? [0, 0, 0, 0];
  let ticks = ownChildrenUser + ownChildrenSystem;
  const pending = [...(children.get(process.pid) ?? [])];
  while (pending.length) {
    const pid = pending.pop();
    ticks += times.get(pid).reduce((sum, value) => sum + value, 0);
    pending.push(...(children.get(pid) ?? []));
  }
  return ticks / TICKS_PER_SECOND;
}

/**
 * Nanoseconds the main thread of each Jest worker below this process (a `processChild` child,
 * where the test file and the app it starts run) has spent waiting for a core, from
 * /proc/<pid>/schedstat's second field (the kernel's run_delay): time the thread was runnable but
 * not running, which a busy machine adds to a file's wall time and a quiet one does not.
 */
function workerRunQueueNs() {
  const waits = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('processChild')) continue;
      if (processTimes(entry)?.ppid !== process.pid) continue;
      waits.set(entry, Number(readFileSync(`/proc/${entry}/schedstat`, 'utf8').split(' ')[1]));
    } catch {
      // exited meanwhile
    }
  }
  return waits;
}

/**
 * Opt-in reporter of each test file's CPU seconds (Linux only, it reads /proc), for measuring the
 * suite (docs/benchmarks/test-suite.md): run with `--maxWorkers=1` so that one file runs at a
 * time, and `--reporters default ./test/support/file-cpu-reporter.js -- FILES...`. Appends one
 * tab-separated line per file, `path  cpu_s  wall_s  passed  failed  queued_s`, to
 * $FILE_CPU_REPORT (default file-cpu.tsv in the working directory). CPU seconds hardly move with
 * the machine's load, unlike wall time, so runs on a busy machine compare. `queued_s` is the time
 * the worker's main thread waited for a core (workerRunQueueNs): `wall_s - queued_s` estimates the
 * file's wall time on a quiet machine, and that minus the main thread's CPU is what the file waits
 * on (timers, simulators, PostgreSQL, Chromium).
 */
export default class FileCpuReporter {
  #started = new Map();
  #out = process.env.FILE_CPU_REPORT ?? 'file-cpu.tsv';

  onTestFileStart(test) {
    this.#started.set(test.path, {
      cpu: descendantsCpuSeconds(),
      at: Date.now(),
      queued: workerRunQueueNs(),
    });
  }

  onTestFileResult(test, result) {
    const started = this.#started.get(test.path);
    if (!started) return;
    const cpu = (descendantsCpuSeconds() - started.cpu).toFixed(1);
    const wall = ((Date.now() - started.at) / 1000).toFixed(1);
    const file = relative(process.cwd(), test.path);
    // A worker started for this file (a replaced one) counts from 0.
    let queuedNs = 0;
    for (const [pid, ns] of workerRunQueueNs()) queuedNs += ns - (started.queued.get(pid) ?? 0);
    const queued = (queuedNs / 1e9).toFixed(1);
    appendFileSync(
      this.#out,
      `${file}\t${cpu}\t${wall}\t${result.numPassingTests}\t${result.numFailingTests}\t${queued}\n`,
    );
  }
}
