import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * What the project's text says against what it serves and runs: the README, the Dockerfile, CI's
 * script and the OpenAPI document's descriptions are read, and each claim that the running app can
 * answer is asked of it. Text that outlives the behaviour it describes fails here.
 */
const root = process.cwd();
const readme = readFileSync(resolve(root, 'README.md'), 'utf8');
const dockerfile = readFileSync(resolve(root, 'Dockerfile'), 'utf8');
const ciScript = readFileSync(resolve(root, '.ci/run'), 'utf8');
const packageJson = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as {
  engines: { node: string };
};

/** Wording by which a description says that what it describes is not there (yet). */
const ABSENCE =
  /\bnot (yet )?(exist|implemented|supported|available)|\bdo(es)? not exist yet|\buntil the \w+ .*exists|\bcoming soon|\bTODO\b/i;

interface OpenApiDocument {
  paths: Record<string, Record<string, unknown>>;
}

/** Every `description` string anywhere in the document, with the JSON path it sits at. */
function descriptions(node: unknown, at = '#'): Array<{ at: string; text: string }> {
  if (Array.isArray(node)) return node.flatMap((item, index) => descriptions(item, `${at}/${index}`));
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) =>
    key === 'description' && typeof value === 'string'
      ? [{ at, text: value }]
      : descriptions(value, `${at}/${key}`),
  );
}

/** The document's path template that `path` names (`{id}` matching one segment, a trailing `*` any rest). */
function documentedPath(document: OpenApiDocument, path: string): string | undefined {
  const wanted = path.endsWith('/*') ? path.slice(0, -1) : path;
  return Object.keys(document.paths).find((template) => {
    if (path.endsWith('/*')) return template.startsWith(wanted);
    return new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(wanted);
  });
}

describe('documented behaviour against served behaviour', () => {
  let ctx: TestApp;
  let document: OpenApiDocument;

  beforeAll(async () => {
    ctx = await startTestApp();
    document = (await ctx.http.get('/api/openapi.json').expect(200)).body as OpenApiDocument;
  });

  afterAll(async () => {
    await ctx?.close();
  });

  it("checks the image's health on the path README names, a route the service answers with 200", async () => {
    const healthcheck = /^HEALTHCHECK[^\n]*\\\n\s*CMD .*'(\/[a-z/]+)'/m.exec(dockerfile);
    expect(healthcheck).not.toBeNull();
    const path = healthcheck![1];
    const named = /Dockerfile`[^)]*health check on\s+`([^`]+)`/.exec(readme);
    expect(named?.[1]).toBe(path);
    const response = await ctx.http.get(path);
    expect(response.status).toBe(200);
  });

  it('serves every API route README names, with the method it names', async () => {
    const named = [...readme.matchAll(/`(?:(GET|POST|PUT|PATCH|DELETE) )?(\/api\/[^`\s]*)`/g)].map(
      ([, method, path]) => ({ method, path }),
    );
    expect(named.length).toBeGreaterThan(5);
    for (const { method, path } of named) {
      const template = documentedPath(document, path);
      if (template === undefined) {
        // Beside the API: pages the document does not describe (Swagger UI), still served.
        expect({ path, status: (await ctx.http.get(path)).status }).toEqual({ path, status: 200 });
        continue;
      }
      if (method !== undefined && !path.endsWith('/*'))
        expect({ path, methods: Object.keys(document.paths[template]) }).toEqual({
          path,
          methods: expect.arrayContaining([method.toLowerCase()]),
        });
    }
  });

  it('describes no field or operation of the API as missing or planned', () => {
    const all = descriptions(document);
    expect(all.length).toBeGreaterThan(100);
    expect(all.filter(({ text }) => ABSENCE.test(text))).toEqual([]);
  });

  it('names as its runtime the Node.js major the image runs, engines asks for and CI installs', () => {
    const images = [...dockerfile.matchAll(/^FROM node:(\d+)/gm)].map(([, major]) => Number(major));
    expect(images.length).toBeGreaterThan(0);
    const ci = /^NODE24_VERSION=(\d+)\.\d+\.\d+$/m.exec(ciScript);
    const engines = /^>=(\d+)$/.exec(packageJson.engines.node);
    const major = Number(ci?.[1]);
    expect(new Set(images)).toEqual(new Set([major]));
    expect(Number(engines?.[1])).toBe(major);
    expect(readme).toContain(`Node ${major} LTS is the runtime`);
  });
});
