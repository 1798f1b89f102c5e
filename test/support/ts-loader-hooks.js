/**
 * Node module hooks (`module.register`) that run the TypeScript sources in a child process the
 * way Jest runs them in-process: each `.ts` file is transpiled on its own with the project's
 * tsconfig (`ts.transpileModule`, what ts-jest does under `isolatedModules`), `.js` specifiers
 * resolve to their `.ts` sources, and `@app/*` / `@libs/*` map to src/ and libs/. No type check
 * and no dist/: tests that need the service as its own process use this instead of a build.
 * Output is cached under the OS temp dir by the SHA-256 of source and options, so only the first
 * start after an edit pays for transpiling (and for loading the compiler).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { URL, fileURLToPath } from 'node:url';

const ROOT = new URL('../../', import.meta.url);
const ALIASES = [
  ['@app/', 'src/'],
  ['@libs/', 'libs/'],
  ['@migrations/', 'migrations/'],
];
const CACHE_DIR = join(tmpdir(), 'idp-backup-ts-cache');
mkdirSync(CACHE_DIR, { recursive: true });
/** Cached output is only valid for the tsconfig it was made with. */
const TSCONFIG_TEXT = readFileSync(new URL('tsconfig.json', ROOT), 'utf8');

let compiler;

/** TypeScript and the project's compiler options, as ES module output with inline source maps. */
async function loadCompiler() {
  const { default: ts } = await import('typescript');
  const { config } = ts.readConfigFile(fileURLToPath(new URL('tsconfig.json', ROOT)), ts.sys.readFile);
  const { options } = ts.convertCompilerOptionsFromJson(config.compilerOptions, fileURLToPath(ROOT));
  const compilerOptions = {
    ...options,
    module: ts.ModuleKind.ESNext,
    sourceMap: false,
    inlineSourceMap: true,
    inlineSources: true,
    declaration: false,
  };
  return { ts, compilerOptions };
}

/** Aliases and `.js` specifiers of project sources to their `.ts` files. */
export async function resolve(specifier, context, nextResolve) {
  for (const [alias, dir] of ALIASES) {
    if (specifier.startsWith(alias)) specifier = new URL(dir + specifier.slice(alias.length), ROOT).href;
  }
  const local = /^(\.|\/|file:)/.test(specifier);
  if (local && specifier.endsWith('.js') && context.parentURL?.endsWith('.ts')) {
    const url = new URL(specifier, context.parentURL);
    const source = new URL(url.href.replace(/\.js$/, '.ts'));
    if (!existsSync(url) && existsSync(source))
      return { url: source.href, format: 'module', shortCircuit: true };
  }
  return nextResolve(specifier, context);
}

/** Project `.ts` files, transpiled to ES modules. */
export async function load(url, context, nextLoad) {
  if (!url.endsWith('.ts') || url.includes('/node_modules/')) return nextLoad(url, context);
  const path = fileURLToPath(url);
  const text = await readFile(path, 'utf8');
  const key = createHash('sha256').update(`${TSCONFIG_TEXT}\0${path}\0${text}`).digest('hex');
  const cached = join(CACHE_DIR, `${key}.js`);
  const hit = await readFile(cached, 'utf8').catch(() => undefined);
  if (hit !== undefined) return { format: 'module', source: hit, shortCircuit: true };
  compiler ??= loadCompiler();
  const { ts, compilerOptions } = await compiler;
  const { outputText } = ts.transpileModule(text, { compilerOptions, fileName: path });
  const temp = `${cached}.${process.pid}.tmp`;
  await writeFile(temp, outputText);
  await rename(temp, cached);
  return { format: 'module', source: outputText, shortCircuit: true };
}
