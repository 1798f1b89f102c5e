import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { SERVICE_ENV, SERVICE_NODE_FLAGS } from './node-flags.js';

/** Every command that starts the service passes the same V8 flags and environment (node-flags.ts). */
describe('SERVICE_NODE_FLAGS and SERVICE_ENV', () => {
  const packageJson = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
  const dockerfile = readFileSync('Dockerfile', 'utf8');

  it.each(['start', 'start:prod'])('npm run %s starts the service with them', (script) => {
    const env = Object.entries(SERVICE_ENV).map(([name, value]) => `${name}=${value}`);
    expect(packageJson.scripts[script]).toContain(
      `${env.join(' ')} node ${SERVICE_NODE_FLAGS.join(' ')} dist/src/main.js`,
    );
  });

  it("the Dockerfile's CMD starts the service with them", () => {
    const cmd = dockerfile.split('\n').find((line) => line.startsWith('CMD ['));
    expect(JSON.parse(cmd!.slice(4))).toEqual(['node', ...SERVICE_NODE_FLAGS, 'dist/src/main.js']);
    for (const [name, value] of Object.entries(SERVICE_ENV)) {
      expect(dockerfile).toMatch(new RegExp(`^(ENV |    )${name}=${value} `, 'm'));
    }
  });
});
