import { pageEncoder } from '@libs/providers/kit/page-encoder-pool.js';
import { pageWorkerTask } from '@libs/providers/kit/page-worker-task.js';
import { encodeListPage, type ListPageTask } from './okta-list-page.js';

/** The worker thread's task (Piscina): one Okta list page encoded (okta-list-page.ts). */
export default pageWorkerTask(encodeListPage);

/** Encodes an Okta list page on the kit's worker threads, by this module's task. */
export const encodeOktaPage = pageEncoder<ListPageTask>(import.meta.url);
