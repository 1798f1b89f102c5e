import { pageEncoder } from '@libs/providers/kit/page-encoder-pool.js';
import { pageWorkerTask } from '@libs/providers/kit/page-worker-task.js';
import { encodeEntraListPage, type EntraEncodedPage, type EntraListPageTask } from './entra-list-page.js';

/** The worker thread's task (Piscina): one Graph list page encoded (entra-list-page.ts). */
export default pageWorkerTask(encodeEntraListPage);

/** Encodes a Graph list page on the kit's worker threads, by this module's task. */
export const encodeEntraPage = pageEncoder<EntraListPageTask, EntraEncodedPage>(import.meta.url);
