import { move, transferableSymbol, valueSymbol } from 'piscina';

import type { EncodedRecords } from '@libs/snapshot/encoded-records.js';

import { ProviderRequestError } from '@libs/providers/provider-errors.js';

/** A page the provider answered with something unusable, told back to the main thread. */
export interface PageWorkerFailure {
  failure: { message: string; status: number };
}

/**
 * A worker thread's task for PageEncoderPool (Piscina's default export): one page encoded by
 * `encode`. Errors lose their class across threads, so a ProviderRequestError (the provider's
 * broken answer) comes back as a value the main thread throws again; the encoded buffers move to
 * the main thread instead of being copied (what a `Result` holds besides is copied).
 */
export function pageWorkerTask<Task, Result extends EncodedRecords = EncodedRecords>(
  encode: (task: Task) => Result,
): (task: Task) => ReturnType<typeof move> | PageWorkerFailure {
  return (task) => {
    try {
      const encoded = encode(task);
      return move({
        [transferableSymbol]: [encoded.lines.buffer, encoded.ends.buffer],
        [valueSymbol]: encoded,
      });
    } catch (error) {
      if (!(error instanceof ProviderRequestError)) throw error;
      return { failure: { message: error.message, status: error.status } };
    }
  };
}
