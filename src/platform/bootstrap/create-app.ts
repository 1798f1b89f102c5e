import 'reflect-metadata';
import { type INestApplication, type INestApplicationContext, type LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from '@app/app.module.js';
import type { AppConfig } from '@app/platform/config/app-config.js';
import { HttpExceptionFilter } from '@app/common/http-exception.filter.js';
import { createValidationPipe } from '@app/common/validation.pipe.js';
import { installRequestEdge } from '@app/common/request-edge/request-edge.js';
import { AuthorizationServer } from '@app/identity/auth/authorization-server.js';
import { resourceMetadataUrlOf } from '@app/identity/auth/protected-resource.js';
import { INTERACTION_PATH } from '@app/identity/auth/oidc-configuration.js';
import { UNSUBSCRIBE_PATH } from '@app/newsletter/newsletter.service.js';
import { WORKFLOWS_UPLOAD_PATH } from '@app/backups/backup-upload.controller.js';
import { UPLOAD_LIMIT_BYTES } from '@app/backups/backup-upload.service.js';
import { createAppLogger } from './app-logger.js';
import { installHttpObservers } from './http-observers.js';
import { installApiDocs } from './openapi.js';
import { consoleCorsOptions } from './console-cors.js';

/**
 * Builds the HTTP application: the OAuth authorization server mounted ahead of Nest's body
 * parsers (it parses its own bodies), then CORS for the console's origins (consoleCorsOptions),
 * then the request edge (installRequestEdge: JSON only,
 * bounded nesting, storable text), then the API with one exception filter, strict DTO
 * validation, the OpenAPI 3.1 document at /api/openapi.json and Swagger UI at /api/docs.
 * @param logger where the app logs; by default the process's logger for `config` (createAppLogger)
 */
export async function createHttpApp(
  config: AppConfig,
  databaseUrl: string,
  logger: LoggerService = createAppLogger(config),
): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, databaseUrl), {
    bodyParser: false,
    logger,
  });
  app.set('trust proxy', false);
  app.disable('x-powered-by');
  app.get(AuthorizationServer).mount(app);
  installHttpObservers(app);
  // Ahead of every guard: a console's preflight is answered before rate limits or authentication.
  app.enableCors(consoleCorsOptions(config));
  installRequestEdge(app, {
    formPaths: [INTERACTION_PATH, UNSUBSCRIBE_PATH],
    uploads: [{ path: WORKFLOWS_UPLOAD_PATH, limit: UPLOAD_LIMIT_BYTES }],
  });
  app.useGlobalFilters(new HttpExceptionFilter((path) => resourceMetadataUrlOf(config, path)));
  app.useGlobalPipes(createValidationPipe());

  installApiDocs(app, config);
  return app;
}

/** A process in the `worker` role: jobs only, no HTTP listener. */
export async function createWorkerContext(
  config: AppConfig,
  databaseUrl: string,
): Promise<INestApplicationContext> {
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config, databaseUrl), {
    logger: createAppLogger(config),
  });
  return app;
}
