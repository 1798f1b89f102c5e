/**
 * Jest in ESM mode (see ../shared/TOOLCHAIN.md): ts-jest with useESM, `.js` import
 * specifiers mapped back to their `.ts` sources, and the `@app` / `@libs` path aliases.
 * Unit specs sit beside the code; e2e specs live in test/.
 */
export default {
  rootDir: '.',
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/libs/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
  moduleNameMapper: {
    '^@app/(.*)\\.js$': '<rootDir>/src/$1',
    '^@libs/(.*)\\.js$': '<rootDir>/libs/$1',
    '^@migrations/(.*)\\.js$': '<rootDir>/migrations/$1',
    '^@test/(.*)\\.js$': '<rootDir>/test/$1',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.jest.json' }],
  },
  setupFiles: ['<rootDir>/test/support/page-worker-hooks.ts'],
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  testTimeout: 60000,
  // One test file at a time, in a worker that is replaced once its heap passes 512 MB. Jest's ESM
  // mode keeps every file's module graph alive, so one process running all files in band grew by
  // ~45 MB a file and spent the later suites in garbage collection (the last two fidelity suites
  // ran 4x slower than alone). `workerIdleMemoryLimit` also makes Jest use a worker for one file.
  maxWorkers: 1,
  workerIdleMemoryLimit: '512MB',
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
};
