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
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.jest.json' }],
  },
  setupFiles: ['<rootDir>/test/support/page-worker-hooks.ts'],
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  testTimeout: 60000,
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
};
