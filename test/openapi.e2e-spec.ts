import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { OpenAPIObject } from '@nestjs/swagger';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import { ModulesContainer } from '@nestjs/core';
import { getMetadataStorage } from 'class-validator';
import puppeteer from 'puppeteer';
import { nestRoutes } from './support/api-routes.js';
import { startTestApp, type TestApp } from './support/test-app.js';

type Operation = {
  responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
  security?: unknown[];
  'x-required-permission'?: string;
  tags?: string[];
  operationId?: string;
};

/** Every operation of the document as `METHOD /path/:param`, the way Nest's router names routes. */
function operationsOf(document: OpenAPIObject): Array<[string, Operation]> {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item as Record<string, Operation>).map(([method, operation]): [string, Operation] => [
      `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`,
      operation,
    ]),
  );
}

/** Does the schema, or one it refers to, carry an `example`? */
function hasExample(document: OpenAPIObject, schema: unknown, seen = new Set<string>()): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  const node = schema as Record<string, unknown>;
  if ('example' in node || 'examples' in node) return true;
  if (typeof node.$ref === 'string') {
    if (seen.has(node.$ref)) return false;
    seen.add(node.$ref);
    return hasExample(document, document.components?.schemas?.[node.$ref.split('/').pop()!], seen);
  }
  return Object.values(node).some((child) => hasExample(document, child, seen));
}

type Schema = Record<string, unknown> & { items?: Schema; enum?: unknown[]; type?: unknown };

/**
 * What the document must say of a property that a class-validator constraint checks: the
 * validator's bound, pattern or format, on the property or (`each`) on its items.
 */
function documentedAs(name: string, constraints: unknown[]): Record<string, unknown> | undefined {
  switch (name) {
    case 'isLength':
      return {
        ...(Number(constraints[0]) > 0 ? { minLength: constraints[0] } : {}),
        maxLength: constraints[1],
      };
    case 'maxLength':
      return { maxLength: constraints[0] };
    case 'matches':
      return { pattern: (constraints[0] as RegExp).source };
    case 'isUuid':
      return { format: 'uuid' };
    case 'isEmail':
      return { format: 'email' };
    case 'arrayMaxSize':
      return { maxItems: constraints[0] };
    case 'min':
      return { minimum: constraints[0] };
    case 'max':
      return { maximum: constraints[0] };
    case 'isIn':
      return { enum: constraints[0] };
    default:
      return undefined;
  }
}

/** A class, as decorators and class-validator see it. */
type Class = new (...args: never[]) => object;

/** The request DTO classes of every handler: `{ handler, kind, dto }` for each `@Body()` and `@Query()` class. */
function requestDtos(
  app: TestApp['app'],
): Array<{ controller: string; handler: string; kind: 'body' | 'query'; dto: Class }> {
  const found: Array<{ controller: string; handler: string; kind: 'body' | 'query'; dto: Class }> = [];
  for (const module of app.get(ModulesContainer).values())
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Class | null;
      if (!controller) continue;
      for (const handler of Object.getOwnPropertyNames(controller.prototype)) {
        const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, handler) ?? {}) as Record<
          string,
          { index: number; data?: unknown }
        >;
        const types = (Reflect.getMetadata('design:paramtypes', controller.prototype, handler) ??
          []) as Class[];
        for (const [key, arg] of Object.entries(args)) {
          const kind = key.startsWith(`${RouteParamtypes.BODY}:`)
            ? 'body'
            : key.startsWith(`${RouteParamtypes.QUERY}:`)
              ? 'query'
              : undefined;
          const dto = types[arg.index];
          if (
            kind &&
            arg.data === undefined &&
            dto &&
            getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false).length
          )
            found.push({ controller: controller.name.replace(/Controller$/, ''), handler, kind, dto });
        }
      }
    }
  return found;
}

describe('the OpenAPI document', () => {
  let sut: TestApp;
  let document: OpenAPIObject;
  let operations: Array<[string, Operation]>;

  beforeAll(async () => {
    sut = await startTestApp();
    document = (await sut.http.get('/api/openapi.json').expect(200)).body as OpenAPIObject;
    operations = operationsOf(document);
  });
  afterAll(async () => {
    await sut?.close();
  });

  it('describes exactly the /api routes of the app, and nothing else', () => {
    const routes = nestRoutes(sut.app).map((route) => `${route.method} ${route.path}`);
    const described = operations.map(([key]) => key);
    const apiRoutes = routes.filter((route) => route.split(' ')[1].startsWith('/api/'));
    expect({ undocumented: apiRoutes.filter((route) => !described.includes(route)) }).toEqual({
      undocumented: [],
    });
    expect({ notRoutes: described.filter((key) => !routes.includes(key)) }).toEqual({ notRoutes: [] });
    expect(described.filter((key) => !key.split(' ')[1].startsWith('/api/'))).toEqual([]);
  });

  it('gives every operation a named 2xx schema (a redirect its 302), named error schemas, tags and an example', () => {
    const problems = operations.flatMap(([key, operation]) => {
      const statuses = Object.keys(operation.responses);
      const success = statuses.filter((status) => status.startsWith('2'));
      const found: string[] = [];
      if (success.length === 0 && !statuses.includes('302')) found.push('no 2xx response');
      for (const status of success) {
        const content = operation.responses[status].content ?? {};
        const json = content['application/json'];
        if (!json && Object.keys(content).length === 0) found.push(`${status} has no content`);
        if (json && !json.schema?.$ref?.startsWith('#/components/schemas/'))
          found.push(`${status} is not a named schema`);
        if (json && !hasExample(document, json.schema)) found.push(`${status} has no example`);
      }
      for (const status of statuses.filter((s) => /^[45]/.test(s))) {
        if (
          operation.responses[status].content?.['application/json']?.schema?.$ref !==
          '#/components/schemas/Error'
        )
          found.push(`${status} is not the Error schema`);
      }
      for (const status of ['429', '500']) if (!statuses.includes(status)) found.push(`no ${status}`);
      if (!operation.tags?.length) found.push('no tag');
      if (!operation.operationId) found.push('no operationId');
      return found.map((problem) => `${key}: ${problem}`);
    });
    expect(problems).toEqual([]);
  });

  it('names the permission and the security requirement of every route that needs one, as the guard reads them', () => {
    const byKey = new Map(operations);
    const mismatches = nestRoutes(sut.app)
      .filter((route) => byKey.has(`${route.method} ${route.path}`))
      .flatMap((route) => {
        const key = `${route.method} ${route.path}`;
        const operation = byKey.get(key)!;
        const expected = route.isPublic
          ? { permission: undefined, security: [] }
          : { permission: route.permission, security: [{ bearer: [] }, { oauth2: ['api'] }], has401: true };
        const actual = {
          permission: operation['x-required-permission'],
          security: operation.security,
          ...(route.isPublic ? {} : { has401: '401' in operation.responses }),
        };
        return JSON.stringify(actual) === JSON.stringify(expected) ? [] : [{ key, expected, actual }];
      });
    expect(mismatches).toEqual([]);
  });

  it('documents every bound, pattern and format the request validators enforce', () => {
    const operationsById = new Map(
      Object.values(document.paths).flatMap((item) =>
        Object.values(
          item as Record<
            string,
            {
              operationId: string;
              parameters?: Array<{ name: string; schema: Schema }>;
              requestBody?: { content: Record<string, { schema: { $ref: string } }> };
            }
          >,
        ).map((operation) => [operation.operationId, operation] as const),
      ),
    );
    const mismatches: string[] = [];
    for (const { controller, handler, kind, dto } of requestDtos(sut.app)) {
      const operation = operationsById.get(`${controller}_${handler}`);
      if (!operation) continue;
      const bodyRef = operation.requestBody?.content['application/json']?.schema.$ref;
      const property = (name: string): Schema | undefined =>
        kind === 'query'
          ? operation.parameters?.find((parameter) => parameter.name === name)?.schema
          : ((
              document.components?.schemas?.[bodyRef!.split('/').pop()!] as {
                properties?: Record<string, Schema>;
              }
            )?.properties?.[name] as Schema | undefined);
      for (const rule of getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false)) {
        const expected = documentedAs(rule.name ?? '', rule.constraints ?? []);
        const schema = property(rule.propertyName);
        const where = rule.each ? schema?.items : schema;
        for (const [field, value] of Object.entries(expected ?? {}))
          if (JSON.stringify(where?.[field]) !== JSON.stringify(value))
            mismatches.push(
              `${controller}_${handler} ${kind} ${rule.propertyName}${rule.each ? '[]' : ''}: ${rule.name} says ${field} ${JSON.stringify(value)}, the document ${JSON.stringify(where?.[field])}`,
            );
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('configures OAuth 2.0 against the service’s own authorization server', async () => {
    const metadata = (await sut.http.get('/.well-known/oauth-authorization-server').expect(200)).body;
    const oauth2 = document.components?.securitySchemes?.oauth2 as unknown as {
      flows: Record<string, { tokenUrl: string; authorizationUrl?: string; scopes: Record<string, string> }>;
    };
    expect(oauth2.flows.authorizationCode.authorizationUrl).toBe(metadata.authorization_endpoint);
    expect(oauth2.flows.authorizationCode.tokenUrl).toBe(metadata.token_endpoint);
    expect(oauth2.flows.clientCredentials.tokenUrl).toBe(metadata.token_endpoint);
    for (const scope of Object.keys(oauth2.flows.clientCredentials.scopes))
      expect(metadata.scopes_supported).toContain(scope);
  });

  it('has a contract check that refuses an answer the document does not allow', () => {
    const json = { 'content-type': 'application/json; charset=utf-8' };
    expect(
      sut.contract.problems('GET', '/api/health', { status: 200, headers: json, body: { status: 'ok' } }),
    ).toEqual([
      expect.stringContaining("must have required property 'uptime'"),
      expect.stringContaining("must have required property 'version'"),
    ]);
    expect(sut.contract.problems('GET', '/api/health', { status: 418, headers: json, body: {} })).toEqual([
      expect.stringContaining('a status the document does not list'),
    ]);
    expect(
      sut.contract.problems('GET', `/api/backup/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`, {
        status: 404,
        headers: json,
        body: { code: 'not_found' },
      }),
    ).toEqual([expect.stringContaining("must have required property 'error'")]);
  });

  it('serves Swagger UI at /api/docs without a token, listing every operation, under a CSP that forbids framing (headless Chromium)', async () => {
    const browser = await puppeteer.launch({
      executablePath: sut.config.CHROMIUM_PATH,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
    try {
      const page = await browser.newPage();
      // Anything the page's Content-Security-Policy refuses is reported on the console.
      const refused: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
      });
      const response = await page.goto(`${sut.baseUrl}/api/docs`, { waitUntil: 'networkidle0' });
      expect(response?.status()).toBe(200);
      expect(response?.headers()).toMatchObject({
        'content-security-policy': expect.stringContaining("frame-ancestors 'none'"),
        'x-frame-options': 'DENY',
      });
      expect(response?.headers()['content-security-policy']).toContain("script-src 'self';");
      await page.waitForSelector('.opblock', { timeout: 20_000 });
      const shown = await page.$$eval('.opblock-summary-path', (nodes) =>
        nodes.map((node) => node.getAttribute('data-path')),
      );
      expect(shown).toHaveLength(operations.length);
      expect(new Set(shown)).toEqual(new Set(Object.keys(document.paths)));
      expect(await page.$('.authorize')).not.toBeNull();
      // Swagger UI works within the policy: the authorize dialog opens, nothing was refused.
      await page.click('.authorize');
      await page.waitForSelector('.auth-container', { timeout: 10_000 });
      expect(refused).toEqual([]);
      // Its OAuth 2.0 redirect page carries the same headers.
      const redirect = await sut.http.get('/api/docs/oauth2-redirect.html');
      expect(redirect.headers['x-frame-options']).toBe('DENY');
      const screenshot = await page.screenshot({ fullPage: true });
      expect(screenshot.subarray(1, 4).toString()).toBe('PNG');
    } finally {
      await browser.close();
    }
  }, 60_000);
});
