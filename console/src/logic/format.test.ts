import { describe, expect, it } from 'vitest';
import {
  connectionName,
  formatBytes,
  formatCount,
  formatObjectCount,
  formatPercent,
  providerLabel,
} from './format';
import { parseRetryAfter } from '../api/errors';

describe('formatBytes', () => {
  it('uses binary units with one decimal', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(5 * 1024 ** 3)).toBe('5.0 GiB');
  });
});

describe('formatPercent', () => {
  it('rounds to a whole percentage', () => expect(formatPercent(0.953)).toBe('95 %'));
});

describe('connectionName', () => {
  it('prefers the org name, else the host', () => {
    expect(connectionName({ org_name: 'Acme', org_url: 'https://acme.okta.com' })).toBe('Acme');
    expect(connectionName({ org_name: null, org_url: 'https://acme.okta.com' })).toBe('acme.okta.com');
  });
});

describe('providerLabel', () => {
  it('names each provider', () => expect(providerLabel('entra_id')).toBe('Microsoft Entra ID'));
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates (RFC 9110 section 10.2.3)', () => {
    expect(parseRetryAfter('30')).toBe(30);
    expect(
      parseRetryAfter('Wed, 21 Oct 2015 07:28:30 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT')),
    ).toBe(30);
    expect(parseRetryAfter(null)).toBeNull();
    expect(parseRetryAfter('soon')).toBeNull();
  });
});

describe('formatCount', () => {
  it('puts the noun in the number of the count, and groups thousands', () => {
    expect(formatCount(1, 'change')).toBe('1 change');
    expect(formatCount(0, 'change')).toBe('0 changes');
    expect(formatCount(10000, 'change')).toBe('10,000 changes');
  });
});

describe('formatObjectCount', () => {
  it("sums a backup's counts per type and groups thousands", () => {
    expect(formatObjectCount({ user: 1200, group: 4 })).toBe('1,204');
    expect(formatObjectCount({})).toBe('0');
  });
});
