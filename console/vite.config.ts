import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

/** Builds the console to static files in dist/; `server/serve.js` serves them with the API's address. */
export default defineConfig({
  plugins: [react()],
  // One chunk of ~700 kB (~210 kB gzipped): npm run bench:console keeps the gzipped size under 250 kB.
  build: { outDir: 'dist', sourcemap: false, chunkSizeWarningLimit: 800 },
  test: { environment: 'node', include: ['src/**/*.test.ts'] },
});
