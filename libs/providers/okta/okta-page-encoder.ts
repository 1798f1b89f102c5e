import { availableParallelism } from 'node:os';

import { Piscina } from 'piscina';

import type { EncodedRecords } from '@libs/snapshot/encoded-records.js';

import { ProviderRequestError } from '@libs/providers/provider-errors.js';
import type { ListPageTask } from './okta-list-page.js';
import type { ListPageFailure } from './okta-page-worker.js';

/** Run from the TypeScript sources (the tests), the worker is loaded from its source too. */
const FROM_SOURCES = import.meta.url.endsWith('.ts');
const WORKER = new URL(FROM_SOURCES ? './okta-page-worker.ts' : './okta-page-worker.js', import.meta.url);

/**
 * A worker holds about one page at a time (a few MB parsed, more for a page of 1,000 users with
 * large profiles): a small young generation keeps its share of the service's peak RSS small (issue
 * 3: under 300 MB), and the old space caps what a pathological page may take.
 */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 8 };

/** Idle worker threads end after this long, ms, so an idle service holds none. */
const IDLE_TIMEOUT_MS = 30_000;

let shared: Piscina | undefined;
let workerExecArgv: string[] | undefined;

/**
 * Node options of the worker threads, for a process that cannot pass on its own: tests running
 * the sources inside Jest hand in the hooks that load TypeScript. Without it (the default) a
 * worker takes its process's options (Node `Worker` `execArgv`), which is what a service run
 * with `node --import <hooks>` needs. Applies to the pool started after it.
 */
export function setOktaPageWorkerExecArgv(execArgv: string[]): void {
  workerExecArgv = execArgv;
}

/**
 * Encodes list pages for a snapshot on worker threads (okta-page-worker.ts), one process-wide
 * pool shared by every backup: parsing, redaction, content hashes and NDJSON lines of users, app
 * assignments and group memberships leave the main thread, which keeps the requests, the
 * rate-limit governor and the store. Threads: one fewer than the cores (at least one); started
 * on the first page and ended when idle.
 */
export const oktaPageEncoder = {
  /**
   * @returns the page's records, encoded (okta-list-page.ts `encodeListPage`)
   * @throws ProviderRequestError for a page Okta answered with something unusable; the worker's
   *   own error otherwise
   */
  async encode(task: ListPageTask): Promise<EncodedRecords> {
    shared ??= new Piscina({
      filename: WORKER.href,
      minThreads: 0,
      maxThreads: Math.max(1, availableParallelism() - 1),
      idleTimeout: IDLE_TIMEOUT_MS,
      resourceLimits: WORKER_LIMITS,
      execArgv: workerExecArgv,
    });
    // The body moves to the worker (it is the whole of its own buffer, made for this response).
    const result = (await shared.run(task, { transferList: [task.body.buffer] })) as
      EncodedRecords | ListPageFailure;
    if ('failure' in result) throw new ProviderRequestError(result.failure.message, result.failure.status);
    return result;
  },
};
