import { type INestApplicationContext, Logger } from '@nestjs/common';
import { loadConfig } from './config/app-config.js';
import { resolveDatabase } from './bootstrap/database-url.js';
import { createHttpApp, createWorkerContext } from './bootstrap/create-app.js';

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
  const stop = async (): Promise<void> => {
    await app.close();
    await database.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

await bootstrap();
