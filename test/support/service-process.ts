import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SERVICE_ENV, SERVICE_NODE_FLAGS } from '@app/platform/bootstrap/node-flags.js';

/** The checkout, where the child runs. */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** `node --import` this to run the TypeScript sources without a build. */
const REGISTER_HOOKS = new URL('./register-ts-hooks.js', import.meta.url).href;

/** What src/main.ts logs once the process serves (`all`, `api`) or works jobs (`worker`). */
const READY_LINE = /Worker started|Listening on /;

/** How a process ended: its exit code, or the signal that ended it. */
export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** The service's own entry point (src/main.ts) running as a separate OS process. */
export interface ServiceProcess {
  pid: number;
  /** Everything the process wrote to stdout and stderr so far (for failure messages). */
  output(): string;
  /** Sends `signal` and resolves once the process has exited, with how it exited. */
  kill(signal: NodeJS.Signals): Promise<ProcessExit>;
}

/**
 * Starts `src/main.ts` from source with `env` on top of this process's environment and resolves
 * once it logs that it is ready.
 * @param env settings of src/platform/config (ROLE, DATABASE_URL, DATA_DIR, MASTER_KEY, ...); LOG_LEVEL must
 *   be `log` or finer, because readiness is read from the log
 * @param timeoutMs how long to wait for readiness
 * @throws Error with the process output when it exits or is not ready in time
 */
export async function startServiceProcess(
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, '--import', REGISTER_HOOKS, 'src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...SERVICE_ENV, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const ready = new Promise<void>((resolveReady, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready in ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const collect = (chunk: Buffer): void => {
      output += chunk.toString();
      if (READY_LINE.test(output)) {
        clearTimeout(timer);
        resolveReady();
      }
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`service exited (${code ?? signal}) before it was ready:\n${output}`));
    });
  });
  await ready;
  return { pid: child.pid!, output: () => output, kill: (signal) => kill(child, signal) };
}

function kill(child: ChildProcess, signal: NodeJS.Signals): Promise<ProcessExit> {
  return new Promise((resolveExit) => {
    const exited = (): void => resolveExit({ code: child.exitCode, signal: child.signalCode });
    if (child.exitCode !== null || child.signalCode !== null) return exited();
    child.once('exit', exited);
    child.kill(signal);
  });
}

/**
 * A worker replica (`ROLE=worker`) of a test app: its database, data directory and master key,
 * with `env` on top (the org's allowed host and CA, shortened sweep settings).
 */
export function startWorkerOf(
  app: { databaseUrl: string; dataDir: string; config: { MASTER_KEY?: string } },
  env: Record<string, string>,
): Promise<ServiceProcess> {
  return startServiceProcess({
    ...env,
    ROLE: 'worker',
    NODE_ENV: 'test',
    DATABASE_URL: app.databaseUrl,
    DATA_DIR: app.dataDir,
    MASTER_KEY: app.config.MASTER_KEY!,
    LOG_LEVEL: 'log',
  });
}
