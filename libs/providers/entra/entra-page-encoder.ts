import { PageEncoderPool, workerModuleUrl } from '@libs/providers/kit/page-encoder-pool.js';
import type { EntraListPageTask } from './entra-list-page.js';

/** Graph's list pages encoded on worker threads (entra-page-worker.ts), for every backup of the process. */
export const entraPageEncoder = new PageEncoderPool<EntraListPageTask>(
  workerModuleUrl('entra-page-worker', import.meta.url),
);
