import { freePort } from '@app/platform/bootstrap/free-port.js';

/**
 * The environment a documented command (`npm run demo`, the service) runs in from a test: the
 * test's own, without Jest's NODE_ENV, with its own data directory, embedded PostgreSQL port and
 * HTTP port, so it never meets a service the developer may be running.
 */
export async function isolatedCommandEnv(dataDir: string): Promise<NodeJS.ProcessEnv> {
  const { NODE_ENV: _jest, ...inherited } = process.env;
  return {
    ...inherited,
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(await freePort()),
    PORT: String(await freePort()),
  };
}
