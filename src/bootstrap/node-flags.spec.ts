import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { SERVICE_NODE_FLAGS } from './node-flags.js';

/** Every command that starts the service passes the same V8 flags (node-flags.ts). */
describe('SERVICE_NODE_FLAGS', () => {
  const packageJson = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
  const dockerfile = readFileSync('Dockerfile', 'utf8');

  it.each(['start', 'start:prod'])('npm run %s starts the service with them', (script) => {
    expect(packageJson.scripts[script]).toContain(`node ${SERVICE_NODE_FLAGS.join(' ')} dist/src/main.js`);
  });

  it("the Dockerfile's CMD starts the service with them", () => {
    const cmd = dockerfile.split('\n').find((line) => line.startsWith('CMD ['));
    expect(JSON.parse(cmd!.slice(4))).toEqual(['node', ...SERVICE_NODE_FLAGS, 'dist/src/main.js']);
  });
});
