import { describe, expect, it } from 'vitest';
import { runTargets } from './run-targets';

const okta = { id: 'c1', org_name: 'Acme Okta', org_url: 'https://acme.okta.com' };
const entra = { id: 'c2', org_name: null, org_url: 'https://login.microsoftonline.com/tenant' };
const workflows = { id: 'c3', org_name: 'Acme Workflows', org_url: 'https://acme.workflows.okta.com' };

describe('runTargets', () => {
  it('lists each connection the backups name once, by display name', () => {
    const backups = [{ connection: okta }, { connection: entra }, { connection: okta }];
    expect(runTargets(undefined, backups)).toEqual([
      { value: 'c1', label: 'Acme Okta' },
      { value: 'c2', label: 'login.microsoftonline.com' },
    ]);
  });

  it('prefers the team connections where the role may list them, with or without backups', () => {
    expect(runTargets([workflows, okta], [{ connection: entra }])).toEqual([
      { value: 'c1', label: 'Acme Okta' },
      { value: 'c3', label: 'Acme Workflows' },
    ]);
  });

  it('offers nothing before either list has loaded, or when the team has no backups', () => {
    expect(runTargets(undefined, undefined)).toEqual([]);
    expect(runTargets(undefined, [])).toEqual([]);
  });
});
