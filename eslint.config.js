import { readdirSync } from 'node:fs';
import { URL } from 'node:url';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

/*
 * Boundaries (STYLE "Layout", docs/architecture.md), checked on import specifiers: since '../' is
 * refused, a specifier names the layer it comes from (@app = src, @libs = libs), so a pattern
 * on it is enough. ESLint replaces a rule's options block by block instead of merging them,
 * so each block below lists every import restriction that applies to its files.
 * test/lint-boundaries.e2e-spec.ts proves each restriction still reports a violation.
 */

const PARENT = {
  regex: '^\\.\\./',
  message: "Import through a path alias (@app, @libs, @migrations, @test, @tools), not '../'.",
};
const TYPEORM = {
  regex: '^(typeorm|@nestjs/typeorm)(/|$)',
  message:
    'Only repositories, entities, src/platform/database and migrations touch TypeORM (STYLE "Layout").',
};
const TYPEORM_BESIDES_NEST = {
  regex: '^typeorm(/|$)',
  message:
    'A module registers entities through @nestjs/typeorm; TypeORM itself is for repositories and entities.',
};
const LIBS_OUTWARD = {
  regex: '^@app/|^@test/|^@nestjs/|(^|/)test/',
  message:
    'libs/ stands on its own: it never imports src/ (@app), Nest or test/ (@test); pass what it needs as options.',
};

const ONE_PROVIDER = {
  regex: '^@libs/providers/(?!kit/)[^/]+/',
  message:
    "src/ reads providers through the registry (@libs/providers/registry.js), never a provider's own folder.",
};

/**
 * Another feature's repository or entity, seen from `src/<feature>`: features talk through
 * services, which return refs or DTOs. An entity may name another feature's entity: a relation
 * is part of the one schema. `src/platform/database` is no feature: its bases (the tracked run's columns
 * and repository) are there to be extended.
 */
function otherFeatures(feature, { entities }) {
  const kinds = entities ? 'repository|entity' : 'repository';
  return {
    regex: `^@app/(?!${feature}/|platform/database/)[^/]+/(.+/)?[^/]+\\.(${kinds})\\.js$`,
    message: "Use the other feature's service (it returns refs or DTOs), never its repository or entity.",
  };
}

/** Folders under `path`, relative to this file. */
const folders = (path) =>
  readdirSync(new URL(path, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

/** Groups of src/ whose folders are each a unit of their own (platform, identity). */
const GROUPS = ['platform', 'identity'];

/** Units of src/: product features, platform/<part>, identity/<part>; src/platform/database is TypeORM's own setup. */
const FEATURES = folders('./src/')
  .flatMap((name) =>
    GROUPS.includes(name) ? folders(`./src/${name}/`).map((part) => `${name}/${part}`) : [name],
  )
  .filter((feature) => feature !== 'platform/database');

const restricted = (...patterns) => ['error', { patterns: [PARENT, ...patterns] }];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      '.data/**',
      'coverage/**',
      'examples/api-client/generated/**',
      'console/dist/**',
      'console/node_modules/**',
      'console/src/api/schema.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    // No import cycles (STYLE "Layout"): a module's imports, followed through the path aliases
    // and '.js' specifiers of the TypeScript sources (tsconfig.json), never lead back to it.
    // import-x skips type-only imports, which TypeScript erases.
    files: [
      'src/**/*.ts',
      'libs/**/*.ts',
      'migrations/**/*.ts',
      'test/**/*.ts',
      'bench/**/*.ts',
      'tools/**/*.ts',
    ],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({ project: new URL('./tsconfig.json', import.meta.url).pathname }),
        createNodeResolver(),
      ],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'off',
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through src/platform/config.' },
      ],
      'no-restricted-imports': restricted(TYPEORM),
      'no-restricted-syntax': [
        'error',
        { selector: 'ImportExpression[source.value=/^\\.\\.\\//]', message: PARENT.message },
      ],
    },
  },
  {
    files: ['test/**', 'bench/**', 'src/platform/database/**', 'migrations/**'],
    rules: { 'no-restricted-imports': restricted() },
  },
  ...FEATURES.flatMap((feature) => {
    const others = otherFeatures(feature, { entities: true });
    return [
      {
        files: [`src/${feature}/**`],
        rules: { 'no-restricted-imports': restricted(TYPEORM, others, ONE_PROVIDER) },
      },
      {
        files: [`src/${feature}/**/*.module.ts`],
        rules: { 'no-restricted-imports': restricted(TYPEORM_BESIDES_NEST, others, ONE_PROVIDER) },
      },
      {
        files: [`src/${feature}/**/*.repository.ts`],
        rules: { 'no-restricted-imports': restricted(others, ONE_PROVIDER) },
      },
      {
        files: [`src/${feature}/**/*.entity.ts`],
        rules: {
          'no-restricted-imports': restricted(otherFeatures(feature, { entities: false }), ONE_PROVIDER),
        },
      },
    ];
  }),
  {
    // The demo and the CLI drive the service through its services, like a feature.
    files: ['tools/**'],
    rules: {
      'no-restricted-imports': restricted(TYPEORM, otherFeatures('tools', { entities: true }), ONE_PROVIDER),
    },
  },
  { files: ['libs/**'], rules: { 'no-restricted-imports': restricted(TYPEORM, LIBS_OUTWARD) } },
  {
    // Configuration is read in src/platform/config only; tests and benchmarks set up processes, and the
    // simulator's test helpers find the recorded fixtures the same way the tests do.
    files: [
      'src/platform/config/**',
      'test/**',
      'bench/**',
      'libs/simulators/okta/testing/**',
      'libs/simulators/entra/testing/**',
      '*.js',
    ],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    // The console is its own package (a browser app and its static server): it imports within
    // itself by relative paths, and the server reads its settings from the environment.
    files: ['console/**'],
    rules: {
      'no-restricted-imports': 'off',
      'no-restricted-syntax': 'off',
      'no-restricted-properties': 'off',
    },
  },
);
