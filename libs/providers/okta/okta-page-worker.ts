import { move, transferableSymbol, valueSymbol } from 'piscina';

import { ProviderRequestError } from '@libs/providers/provider-errors.js';
import { type ListPageTask, encodeListPage } from './okta-list-page.js';

/** A page Okta answered with something unusable, told back to the main thread. */
export interface ListPageFailure {
  failure: { message: string; status: number };
}

/**
 * The worker thread's task (Piscina): one page encoded. Errors lose their class across threads,
 * so Okta's broken answers come back as a value the main thread throws again.
 */
export default function encode(task: ListPageTask): ReturnType<typeof move> | ListPageFailure {
  try {
    const encoded = encodeListPage(task);
    // Its buffers move to the main thread instead of being copied.
    return move({
      [transferableSymbol]: [encoded.lines.buffer, encoded.ends.buffer],
      [valueSymbol]: encoded,
    });
  } catch (error) {
    if (!(error instanceof ProviderRequestError)) throw error;
    return { failure: { message: error.message, status: error.status } };
  }
}
