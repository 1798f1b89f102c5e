import { describe, expect, it } from '@jest/globals';
import { returnTarget } from './return-target.js';

const trusted = {
  BASE_URL: 'https://backup.example.com',
  CONSOLE_ORIGINS: ['https://console.example.com', 'http://localhost:5173'],
};

describe('returnTarget', () => {
  it.each([
    ['/backups?status=failed', '/backups?status=failed'],
    ['https://console.example.com/', 'https://console.example.com/'],
    ['https://console.example.com/backups?x=1', 'https://console.example.com/backups?x=1'],
    ['http://localhost:5173/', 'http://localhost:5173/'],
  ])('keeps %s', (value, expected) => {
    expect(returnTarget(value, trusted)).toBe(expected);
  });

  it.each([
    'https://evil.example/',
    'https://console.example.com.evil.example/',
    'http://console.example.com/',
    'https://console.example.com:8443/',
    'https://user:pass@console.example.com/',
    'https://backup.example.com/backups',
    '//console.example.com/',
    'javascript:alert(1)',
    `https://console.example.com/${'x'.repeat(2048)}`,
    undefined,
  ])('turns %j into /', (value) => {
    expect(returnTarget(value, trusted)).toBe('/');
  });
});
