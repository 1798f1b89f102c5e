import { pageWorkerTask } from '@libs/providers/kit/page-worker-task.js';
import { encodeListPage } from './okta-list-page.js';

/** The worker thread's task (Piscina): one Okta list page encoded (okta-list-page.ts). */
export default pageWorkerTask(encodeListPage);
