import { describe, expect, it } from '@jest/globals';
import { localPath } from './local-path.js';

const base = 'https://backup.example.com';

describe('localPath', () => {
  it.each([
    ['/backups?status=failed', '/backups?status=failed'],
    ['/interaction/abc', '/interaction/abc'],
    ['/a/../b', '/b'],
  ])('keeps the local path %s', (value, expected) => {
    expect(localPath(value, base)).toBe(expected);
  });

  it.each([
    'https://evil.example/',
    '//evil.example/x',
    '/\\evil.example',
    'javascript:alert(1)',
    'backups',
    '',
    undefined,
    ['/backups'],
    `/${'x'.repeat(2048)}`,
  ])('turns %j into /', (value) => {
    expect(localPath(value, base)).toBe('/');
  });
});
