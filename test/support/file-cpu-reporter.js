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
 * Opt-in reporter of each test file's CPU seconds (Linux only, it reads /proc), for measuring the
 * suite (docs/benchmarks/test-suite.md): run with `--maxWorkers=1` so that one file runs at a
 * time, and `--reporters default ./test/support/file-cpu-reporter.js -- FILES...`. Appends one
 * tab-separated line per file, `path  cpu_s  wall_s  passed  failed`, to $FILE_CPU_REPORT
 * (default file-cpu.tsv in the working directory). CPU seconds hardly move with the machine's
 * load, unlike wall time, so runs on a busy machine compare.
 */
export default class FileCpuReporter {
  #started = new Map();
  #out = process.env.FILE_CPU_REPORT ?? 'file-cpu.tsv';

  onTestFileStart(test) {
    this.#started.set(test.path, { cpu: descendantsCpuSeconds(), at: Date.now() });
  }

  onTestFileResult(test, result) {
    const started = this.#started.get(test.path);
    if (!started) return;
    const cpu = (descendantsCpuSeconds() - started.cpu).toFixed(1);
    const wall = ((Date.now() - started.at) / 1000).toFixed(1);
    const file = relative(process.cwd(), test.path);
    appendFileSync(
      this.#out,
      `${file}\t${cpu}\t${wall}\t${result.numPassingTests}\t${result.numFailingTests}\n`,
    );
  }
}
