/**
 * `node --import` this to run the TypeScript sources without a build (see ts-loader-hooks.js): the
 * service's own child processes (service-process.ts), and the backup's encoding thread when the
 * service runs from its sources in Jest (page-worker-hooks.ts).
 */
import { register } from 'node:module';

register('./ts-loader-hooks.js', import.meta.url);
