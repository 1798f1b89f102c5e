import { type INestApplicationContext, Logger } from '@nestjs/common';
import { loadConfig } from './platform/config/app-config.js';
import { resolveDatabase } from './platform/bootstrap/database-url.js';
import { createHttpApp, createWorkerContext } from './platform/bootstrap/create-app.js';
import { SHUTDOWN_SIGNALS, leaveShutdownSignalsToCaller } from './platform/database/embedded-postgres.js';

/** Starts the service in its configured role (`api`, `worker` or `all`, DESIGN section 1). */
async function bootstrap(): Promise<void> {
  const config = loadConfig();
  const database = await resolveDatabase(config);
  let app: INestApplicationContext;
  if (config.ROLE === 'worker') {
    app = await createWorkerContext(config, database.url);
    await app.init();
    new Logger('Bootstrap').log('Worker started');
  } else {
    const http = await createHttpApp(config, database.url);
    await http.listen(config.PORT, config.HOST);
    new Logger('Bootstrap').log(
      `Listening on http://${config.HOST}:${config.PORT} as ${config.BASE_URL} (role ${config.ROLE})`,
    );
    app = http;
  }
  // In order: running jobs are let go of (pg-boss stops gracefully) while the database is still up.
  const stop = async (): Promise<void> => {
    try {
      await app.close();
    } finally {
      await database.stop();
    }
    process.exit(0);
  };
  const stopOn = (signal: NodeJS.Signals): void => {
    // A second signal, of either kind, then ends the process at once (Node's default).
    for (const other of SHUTDOWN_SIGNALS) process.removeListener(other, stopOn);
    new Logger('Bootstrap').log(`${signal}: stopping`);
    stop().catch((error: unknown) => {
      new Logger('Bootstrap').error(`Could not stop cleanly: ${String(error)}`);
      process.exit(1);
    });
  };
  // Ours first: a signal that arrived meanwhile would be lost if no listener were left (Node stops
  // watching a signal without listeners).
  for (const signal of SHUTDOWN_SIGNALS) process.on(signal, stopOn);
  leaveShutdownSignalsToCaller();
}

await bootstrap();
