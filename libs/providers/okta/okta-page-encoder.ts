import { PageEncoderPool, workerModuleUrl } from '@libs/providers/kit/page-encoder-pool.js';
import type { ListPageTask } from './okta-list-page.js';

/** Okta's list pages encoded on worker threads (okta-page-worker.ts), for every backup of the process. */
export const oktaPageEncoder = new PageEncoderPool<ListPageTask>(
  workerModuleUrl('okta-page-worker', import.meta.url),
);
