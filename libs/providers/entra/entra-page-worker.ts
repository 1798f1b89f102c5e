import { pageWorkerTask } from '@libs/providers/kit/page-worker-task.js';
import { encodeEntraListPage } from './entra-list-page.js';

/** The worker thread's task (Piscina): one Graph list page encoded (entra-list-page.ts). */
export default pageWorkerTask(encodeEntraListPage);
