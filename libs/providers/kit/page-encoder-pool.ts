import { availableParallelism } from 'node:os';

import { Piscina } from 'piscina';

import type { EncodedRecords } from '@libs/snapshot/encoded-records.js';

import { ProviderRequestError } from '@libs/providers/provider-errors.js';
import type { PageWorkerFailure } from './page-worker-task.js';

/**
 * A worker holds about one page at a time (a few MB parsed, more for a page of 1,000 users with
 * large profiles): a small young generation keeps its share of the service's peak RSS small (issue
 * 3: under 300 MB), and the old space caps what a pathological page may take.
 */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 8 };

/** Idle worker threads end after this long, ms, so an idle service holds none. */
const IDLE_TIMEOUT_MS = 30_000;

let workerExecArgv: string[] | undefined;

/**
 * Node options of the worker threads, for a process that cannot pass on its own: tests running
 * the sources inside Jest hand in the hooks that load TypeScript. Without it (the default) a
 * worker takes its process's options (Node `Worker` `execArgv`), which is what a service run
 * with `node --import <hooks>` needs. Applies to pools started after it.
 */
export function setPageWorkerExecArgv(execArgv: string[]): void {
  workerExecArgv = execArgv;
}

/**
 * Encodes list pages for a snapshot on worker threads: one process-wide pool for every provider
 * and every backup, each task run by its provider's worker module (a default export made with
 * `pageWorkerTask`, loaded once per thread). Parsing, redaction, content hashes and NDJSON lines
 * leave the main thread, which keeps the requests, the rate-limit governor and the store.
 * Threads: one fewer than the cores (at least one), so that two providers' backups at once do not
 * start more threads than the machine runs; started on the first page and ended when idle.
 */
class PageEncoderPool {
  private pool: Piscina | undefined;

  /**
   * @param worker the worker module's URL (its own `import.meta.url`)
   * @returns the page's records, encoded by the worker
   * @throws ProviderRequestError for a page the provider answered with something unusable; the
   *   worker's own error otherwise
   */
  async encode<Result extends EncodedRecords>(
    worker: string,
    task: { body: Uint8Array<ArrayBuffer> },
  ): Promise<Result> {
    this.pool ??= new Piscina({
      minThreads: 0,
      maxThreads: Math.max(1, availableParallelism() - 1),
      idleTimeout: IDLE_TIMEOUT_MS,
      resourceLimits: WORKER_LIMITS,
      execArgv: workerExecArgv,
    });
    // The body moves to the worker (it is the whole of its own buffer, made for this response).
    const result = (await this.pool.run(task, { filename: worker, transferList: [task.body.buffer] })) as
      Result | PageWorkerFailure;
    if ('failure' in result) throw new ProviderRequestError(result.failure.message, result.failure.status);
    return result;
  }
}

const pageEncoderPool = new PageEncoderPool();

/**
 * The page encoder of one provider's worker module, on the process-wide pool: a worker module
 * exports its task as default and this, made with its own `import.meta.url`, for the collectors.
 * The URL is the running module's: its `.ts` source when the process runs from sources (the
 * tests), else its compiled `.js`.
 */
export function pageEncoder<
  Task extends { body: Uint8Array<ArrayBuffer> },
  Result extends EncodedRecords = EncodedRecords,
>(workerModuleUrl: string): (task: Task) => Promise<Result> {
  return (task) => pageEncoderPool.encode<Result>(workerModuleUrl, task);
}
