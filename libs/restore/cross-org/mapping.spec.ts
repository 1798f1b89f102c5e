import { describe, expect, it } from '@jest/globals';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import { compileMapping } from './mapping.js';

const user: ResourceRecord = {
  type: 'user',
  id: '00u1',
  name: 'ann@acme.com',
  data: {
    profile: { login: 'ann@acme.com', email: 'Ann@ACME.com', secondEmail: 'ann@acme.com.au' },
    note: 'https://app.acme.com:8443/sso and https://app.acme.community/',
  },
};

describe('compileMapping', () => {
  it('rewrites e-mail domains after an @, whatever their case, and not a longer domain', () => {
    const mapped = compileMapping('okta', {
      domains: [{ from: 'acme.com', to: 'sandbox.example.org' }],
    }).mapRecord(user);
    expect(mapped.data.profile).toEqual({
      login: 'ann@sandbox.example.org',
      email: 'Ann@sandbox.example.org',
      secondEmail: 'ann@acme.com.au',
    });
    expect(mapped.name).toBe('ann@sandbox.example.org');
    expect(user.data.profile).toMatchObject({ login: 'ann@acme.com' });
  });

  it('rewrites URL hosts after ://, keeping a port, and not a longer host', () => {
    const mapped = compileMapping('okta', {
      hosts: [{ from: 'app.acme.com', to: 'app.eu.acme.com' }],
    }).mapRecord(user);
    expect(mapped.data.note).toBe('https://app.eu.acme.com:8443/sso and https://app.acme.community/');
  });

  it("adds a prefix and suffix to Okta's own groups' names, not to groups Okta names", () => {
    const mapping = compileMapping('okta', { groupName: { prefix: 'EU ', suffix: ' (sandbox)' } });
    const group = (type: string): ResourceRecord => ({
      type: 'group',
      id: '00g1',
      name: 'Sales',
      data: { type, profile: { name: 'Sales', description: 'd' } },
    });
    expect(mapping.mapRecord(group('OKTA_GROUP'))).toMatchObject({
      name: 'EU Sales (sandbox)',
      data: { profile: { name: 'EU Sales (sandbox)', description: 'd' } },
    });
    expect(mapping.mapRecord(group('BUILT_IN'))).toEqual(group('BUILT_IN'));
    expect(mapping.mapRecord(user)).toBe(user);
  });

  it("renames an Entra group's displayName", () => {
    const mapped = compileMapping('entra_id', { groupName: { prefix: 'EU ' } }).mapRecord({
      type: 'group',
      id: 'g',
      name: 'Sales',
      data: { displayName: 'Sales' },
    });
    expect(mapped).toMatchObject({ name: 'EU Sales', data: { displayName: 'EU Sales' } });
  });

  it('keeps the explicit pairs as an id map', () => {
    const mapping = compileMapping('okta', { pairs: [{ sourceId: '00g1', targetId: '00g2' }] });
    expect([...mapping.pairs]).toEqual([['00g1', '00g2']]);
  });
});
