/**
 * Jest in ESM mode (see ../shared/TOOLCHAIN.md): TypeScript transpiled by SWC as ES modules, `.js` import
 * specifiers mapped back to their `.ts` sources, and the `@app` / `@libs` path aliases.
 * Unit specs sit beside the code; e2e specs live in test/.
 */
export default {
  rootDir: '.',
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  testMatch: [
    '<rootDir>/src/**/*.spec.ts',
    '<rootDir>/libs/**/*.spec.ts',
    '<rootDir>/tools/**/*.spec.ts',
    '<rootDir>/test/**/*.e2e-spec.ts',
  ],
  moduleNameMapper: {
    '^@app/(.*)\\.js$': '<rootDir>/src/$1',
    '^@libs/(.*)\\.js$': '<rootDir>/libs/$1',
    '^@migrations/(.*)\\.js$': '<rootDir>/migrations/$1',
    '^@test/(.*)\\.js$': '<rootDir>/test/$1',
    '^@tools/(.*)\\.js$': '<rootDir>/tools/$1',
    '^@console/(.*)\\.js$': '<rootDir>/console/$1.js',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  // SWC strips the types file by file, as tsc's transpileModule under isolatedModules would, at a
  // fraction of its CPU (the TypeScript compiler is not even loaded into each worker): the options
  // mirror tsconfig.json (ES2023, legacy decorators with emitted metadata for Nest's injection and
  // TypeORM's columns, class fields with define semantics as tsc uses for that target). Type
  // errors are `npm run typecheck`'s job, as they were with ts-jest's isolatedModules.
  resolver: '<rootDir>/test/support/jest-resolver.js',
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          target: 'es2023',
          keepClassNames: true,
          transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: true },
        },
        sourceMaps: 'inline',
      },
    ],
  },
  setupFiles: ['<rootDir>/test/support/page-worker-hooks.ts'],
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  testTimeout: 60000,
  // Three test files at a time on the CI machine's 2 cores: a worker keeps about half a core busy
  // over a run (CI with two: 1,450 CPU s of Jest in 1,271 s of wall), the rest of its time waiting
  // on simulators' modelled lag and rate-limit windows, timers, PostgreSQL and Chromium, so a third
  // fills the cores the two left idle (docs/benchmarks/test-suite.md). Each worker is replaced
  // once its heap passes 512 MB. Jest's ESM mode keeps every file's module graph
  // alive, so one process running all files in band grew by ~45 MB a file and spent the later
  // suites in garbage collection (the last two fidelity suites ran 4x slower than alone).
  // Files share nothing but the PostgreSQL cluster (a database each) and docs/restore-fidelity.md
  // (written under a lock, test/support/restore-fidelity.ts updateDoc).
  maxWorkers: 3,
  testSequencer: '<rootDir>/test/support/long-first-sequencer.js',
  workerIdleMemoryLimit: '512MB',
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
};
