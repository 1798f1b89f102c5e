import { setPageWorkerExecArgv } from '@libs/providers/kit/page-encoder-pool.js';

// Jest loads the TypeScript sources itself, but the backup's encoding threads are plain Node
// workers: they load theirs through the hooks the service's child processes use.
setPageWorkerExecArgv(['--import', new URL('./register-ts-hooks.js', import.meta.url).href]);
