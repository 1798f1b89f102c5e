import type { INestApplication } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { AppConfig } from '@app/platform/config/app-config.js';
import { SERVICE_VERSION } from '@app/platform/config/version.js';
import { OAUTH2_SCHEME } from '@app/common/decorators.js';
import { errorResponse } from '@app/common/openapi/api-error-responses.decorator.js';
import { ErrorResponseDto } from '@app/common/openapi/error-response.dto.js';
import { API_SCOPE } from '@app/common/api-scope.js';

/** Where the interactive documentation (Swagger UI) is served, public. */
export const API_DOCS_PATH = '/api/docs';
/** Where the OpenAPI 3.1 document is served, public. */
export const OPENAPI_DOCUMENT_PATH = '/api/openapi.json';

/**
 * Headers of every Swagger UI response: a Content-Security-Policy (W3C CSP Level 3) that lets
 * Swagger UI run from its own files only (its scripts, including the OAuth 2.0 redirect page's,
 * are files, not inline; its page and React set inline styles; its icons are `data:` images) and
 * fetch only this origin (the document, the token endpoint), and no framing at all
 * (`frame-ancestors 'none'`, and X-Frame-Options for browsers without CSP; RFC 7034).
 */
export const API_DOCS_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; '),
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

/**
 * The OpenAPI 3.1 document of every `/api` route, built from the controllers' decorators and the
 * DTO classes (nothing is written by hand): bearer tokens and the OAuth 2.0 flows of the
 * service's own authorization server (docs/auth.md), and the 429 and 500 every operation can
 * answer.
 */
export function buildOpenApiDocument(app: INestApplication, config: AppConfig): OpenAPIObject {
  const oauth = (path: string): string => `${config.BASE_URL}/oauth/${path}`;
  const scopes = { [API_SCOPE]: 'The API as a whole; permissions come from the team role.' };
  const builder = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Identity provider backup and restore API')
    .setDescription(
      'Backs up, compares and restores identity-provider configuration. Conventions (auth, errors, ' +
        'pagination, rate limits, retries, time formats): docs/api.md. Interactive: ' +
        `${API_DOCS_PATH}.`,
    )
    .setVersion(SERVICE_VERSION)
    .setLicense('Apache-2.0', 'https://www.apache.org/licenses/LICENSE-2.0')
    .addServer(config.BASE_URL)
    .addBearerAuth({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description: `An access token of this service's authorization server for the resource ${config.API_RESOURCE}.`,
    })
    .addOAuth2(
      {
        type: 'oauth2',
        description: `Authorization server metadata: ${config.BASE_URL}/.well-known/oauth-authorization-server. Tokens are for the resource ${config.API_RESOURCE} (RFC 8707).`,
        flows: {
          authorizationCode: {
            authorizationUrl: oauth('authorize'),
            tokenUrl: oauth('token'),
            refreshUrl: oauth('token'),
            scopes,
          },
          clientCredentials: { tokenUrl: oauth('token'), scopes },
        },
      },
      OAUTH2_SCHEME,
    );
  for (const [status, description] of Object.entries(GLOBAL_ERRORS)) {
    builder.addGlobalResponse(errorResponse(Number(status), description));
  }
  const document = SwaggerModule.createDocument(app, builder.build(), {
    extraModels: [ErrorResponseDto],
    operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}`,
  });
  // RequirePermission gives every other operation its requirement; a public one (@Public) says
  // so explicitly, as linters ask, rather than by leaving `security` out.
  for (const item of Object.values(document.paths))
    for (const method of ['get', 'put', 'post', 'delete', 'patch'] as const) {
      const operation = item[method];
      if (operation) operation.security ??= [];
    }
  return document;
}

/**
 * What every operation may answer whatever it does (spec "Errors", "Limits"): the request edge
 * refuses a body that is not JSON and text PostgreSQL cannot store in any parameter before
 * routing (src/common/request-edge), and the limiter counts every /api route.
 */
const GLOBAL_ERRORS = {
  400: 'A malformed, oversized or too deeply nested JSON body, or a parameter holding NUL or an unpaired surrogate.',
  415: { codes: ['unsupported_media_type'], description: 'A body that is not `application/json` in UTF-8.' },
  429: 'The per-IP rate limit is exceeded; `Retry-After` says when to retry (docs/api.md).',
  500: 'An unhandled server failure; nothing is leaked. Idempotent GETs are safe to retry.',
} as const;

/**
 * Serves the document at OPENAPI_DOCUMENT_PATH and Swagger UI at API_DOCS_PATH, both public and
 * built at their first request (few processes are ever asked for them). Swagger UI signs in
 * through the authorization code flow with PKCE, for the API resource; its responses carry
 * API_DOCS_HEADERS.
 */
export function installApiDocs(app: INestApplication, config: AppConfig): void {
  app.use(API_DOCS_PATH, (_request: Request, response: Response, next: NextFunction) => {
    response.set(API_DOCS_HEADERS);
    next();
  });
  SwaggerModule.setup(API_DOCS_PATH.slice(1), app, () => buildOpenApiDocument(app, config), {
    jsonDocumentUrl: OPENAPI_DOCUMENT_PATH.slice(1),
    raw: ['json'],
    customSiteTitle: 'Identity provider backup and restore API',
    swaggerOptions: {
      persistAuthorization: false,
      displayOperationId: true,
      oauth2RedirectUrl: `${config.BASE_URL}${API_DOCS_PATH}/oauth2-redirect.html`,
      initOAuth: {
        usePkceWithAuthorizationCodeGrant: true,
        scopes: [API_SCOPE],
        additionalQueryStringParams: { resource: config.API_RESOURCE },
      },
    },
  });
}
