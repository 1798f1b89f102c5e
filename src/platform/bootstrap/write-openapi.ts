import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '@app/app.module.js';
import { loadConfig } from '@app/platform/config/app-config.js';
import { buildOpenApiDocument } from './openapi.js';

/**
 * Writes the OpenAPI document to the file given (default `dist/openapi.json`) without a database:
 * the app is built in Nest's preview mode, which reads the modules and controllers and creates
 * no provider. CI lints it and generates the typed client from it (`npm run lint:openapi`,
 * `npm run client:check`). BASE_URL sets the servers and OAuth 2.0 URLs it names.
 */
async function main(target = 'dist/openapi.json'): Promise<void> {
  const config = loadConfig();
  const app = await NestFactory.create(AppModule.forRoot(config, 'postgres://preview'), {
    preview: true,
    logger: ['error'],
  });
  writeFileSync(target, `${JSON.stringify(buildOpenApiDocument(app, config), null, 2)}\n`);
  await app.close();
}

await main(process.argv[2]);
