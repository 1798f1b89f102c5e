import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

/** Builds the console to static files in dist/; `server/serve.js` serves them with the API's address. */
export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', sourcemap: false },
  test: { environment: 'node', include: ['src/**/*.test.ts'] },
});
