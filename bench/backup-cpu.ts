import { type Phase, cpuPhases } from './cpu-phases.js';
import type { ServiceProcess } from './service-process.js';
import { type ThreadCpu, type ThreadKind, cpuByKind, readThreadCpu } from './thread-cpu.js';

/** Records a phase's figures are given per: the unit. */
const PER_RECORDS = 10_000;

/** One measured run's service CPU, read by `BackupCpuWatch.stop`. */
export interface BackupCpu {
  /** CPU seconds of the run by kind of thread (thread-cpu.ts) */
  byThread: Record<ThreadKind, number>;
  /**
   * Call once the service has stopped (it writes its profiles then).
   * @returns CPU seconds per 10,000 records by phase, or null without a profile directory
   */
  phases(records: number): Record<Phase, number> | null;
}

/**
 * Watches the service's threads over one measured run: start before it, stop right after it.
 * @param profileDir where the service writes its CPU profiles (`--cpu-prof-dir`), if it does
 */
export function watchBackupCpu(service: ServiceProcess, profileDir: string | undefined): () => BackupCpu {
  const pid = service.pid;
  const before: ThreadCpu = readThreadCpu(pid);
  const fromUs = Number(process.hrtime.bigint() / 1000n);
  return () => {
    const byThread = cpuByKind(before, readThreadCpu(pid));
    const toUs = Number(process.hrtime.bigint() / 1000n);
    return {
      byThread: roundAll(byThread),
      phases(records: number) {
        if (profileDir === undefined || records === 0) return null;
        const phases = cpuPhases(profileDir, pid, fromUs, toUs, byThread);
        for (const phase of Object.keys(phases) as Phase[])
          phases[phase] = (phases[phase] * PER_RECORDS) / records;
        return roundAll(phases, 3);
      },
    };
  };
}

function roundAll<Key extends string>(figures: Record<Key, number>, digits = 2): Record<Key, number> {
  for (const key of Object.keys(figures) as Key[]) figures[key] = Number(figures[key].toFixed(digits));
  return figures;
}
