import 'reflect-metadata';
import { type INestApplication, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Request, Response } from 'express';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { AppModule } from '@app/app.module.js';
import type { AppConfig } from '@app/config/app-config.js';
import { SERVICE_VERSION } from '@app/config/version.js';
import { HttpExceptionFilter } from '@app/common/http-exception.filter.js';
import { createValidationPipe } from '@app/common/validation.pipe.js';
import { installRequestEdge } from '@app/common/request-edge/request-edge.js';
import { AuthorizationServer } from '@app/auth/authorization-server.js';
import { protectedResourceMetadataUrl } from '@app/auth/protected-resource.js';
import { INTERACTION_PATH } from '@app/auth/oidc-configuration.js';
import { UNSUBSCRIBE_PATH } from '@app/newsletter/newsletter.service.js';
import { createAppLogger } from './app-logger.js';
import { installHttpObservers } from './http-observers.js';

/**
 * Builds the HTTP application: the OAuth authorization server mounted ahead of Nest's body
 * parsers (it parses its own bodies), then the request edge (installRequestEdge: JSON only,
 * bounded nesting, storable text), then the API with one exception filter, strict DTO
 * validation and the OpenAPI 3.1 document at /api/openapi.json (built at its first request).
 */
export async function createHttpApp(config: AppConfig, databaseUrl: string): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, databaseUrl), {
    bodyParser: false,
    logger: createAppLogger(config),
  });
  app.set('trust proxy', false);
  app.disable('x-powered-by');
  app.get(AuthorizationServer).mount(app);
  installHttpObservers(app);
  installRequestEdge(app, { formPaths: [INTERACTION_PATH, UNSUBSCRIBE_PATH] });
  app.useGlobalFilters(new HttpExceptionFilter(protectedResourceMetadataUrl(config)));
  app.useGlobalPipes(createValidationPipe());

  const documentConfig = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Identity provider backup and restore API')
    .setVersion(SERVICE_VERSION)
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
    .build();
  // Built at the first request rather than at boot: few processes are ever asked for it.
  let document: OpenAPIObject | undefined;
  app
    .getHttpAdapter()
    .getInstance()
    .get('/api/openapi.json', (_req: Request, res: Response) =>
      res.json((document ??= SwaggerModule.createDocument(app, documentConfig))),
    );
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
