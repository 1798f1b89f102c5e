import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** How the console is started: console/server/console-server.js (a separate package, loaded at run time). */
type StartConsoleServer = (options: {
  port: number;
  host: string;
  apiUrl: string;
}) => Promise<{ url: string; close: () => Promise<void> }>;

/**
 * `npm run demo -- --console`: builds the console (console/, a production build), serves it on
 * `http://localhost:<port>` against the demo's service, prints how to sign in, and keeps
 * everything running until Ctrl-C (SIGINT) or SIGTERM. The service must answer on `localhost`
 * too (the session cookie reaches the console only under the same host name, docs/console.md),
 * and list the console's origin in CONSOLE_ORIGINS.
 */
export async function serveConsoleUntilStopped(options: {
  port: number;
  apiUrl: string;
  ownerEmail: string;
  say: (line: string) => void;
}): Promise<void> {
  const consoleDir = resolve(process.cwd(), 'console');
  options.say('Building the console...');
  execFileSync('npm', ['--prefix', consoleDir, 'run', 'build', '--silent'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const { startConsoleServer } = (await import(
    pathToFileURL(resolve(consoleDir, 'server/console-server.js')).href
  )) as { startConsoleServer: StartConsoleServer };
  const server = await startConsoleServer({ port: options.port, host: 'localhost', apiUrl: options.apiUrl });
  options.say(
    [
      '',
      `Console at ${server.url}/ (API ${options.apiUrl})`,
      `Sign in as ${options.ownerEmail}; the code is in the outbox:`,
      `  npm run -s cli -- outbox:list --to ${options.ownerEmail}`,
      'The simulated org, the service and the console keep running until Ctrl-C.',
      '',
    ].join('\n'),
  );
  await new Promise<void>((stop) => {
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await server.close();
}
