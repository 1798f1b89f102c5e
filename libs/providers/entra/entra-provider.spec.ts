import { describe, expect, it } from '@jest/globals';
import { ProviderHostNotAllowedError } from '@libs/providers/provider-errors.js';
import { requireProvider } from '@libs/providers/registry.js';

import { ENTRA_RESOURCE_TYPES } from './entra-resource-catalog.js';

const ENTRA = requireProvider('entra_id');
const connect = (orgUrl: string, tenantId = 'contoso.onmicrosoft.com', extraAllowedHosts: string[] = []) =>
  ENTRA.connect({
    orgUrl,
    credentials: { tenant_id: tenantId, client_id: 'app', client_secret: 'secret' },
    extraAllowedHosts,
    userAgent: 'spec',
    headroom: 0.2,
  });

describe('Entra ID descriptor', () => {
  it('is registered with its credentials, Graph as the default org URL, and the backup permissions', () => {
    expect(ENTRA.defaultOrgUrl).toBe('https://graph.microsoft.com');
    expect(ENTRA.credentials.map(({ name, secret }) => [name, secret])).toEqual([
      ['tenant_id', false],
      ['client_id', false],
      ['client_secret', true],
    ]);
    expect(ENTRA.grants()).toEqual([
      'Organization.Read.All',
      'Domain.Read.All',
      'Policy.Read.All',
      'User.Read.All',
      'Group.Read.All',
      'Policy.Read.AuthenticationMethod',
      // Incremental backups read the native recovery jobs (entra-native-recovery.ts).
      'EntraBackup.Read.All',
    ]);
  });

  it('has categories that cover every type exactly once', () => {
    const covered = Object.values(ENTRA.categories).flat();
    expect([...covered].sort()).toEqual([...ENTRA_RESOURCE_TYPES].sort());
    expect(new Set(covered).size).toBe(covered.length);
  });

  it('ends its severity table with a catch-all', () => {
    expect(
      ENTRA.severityRules.at(-1)?.applies({ resourceType: 'anything', action: 'added', patch: [] }),
    ).toBe(true);
  });

  it('refuses, before any request, a host that is not allowed, an URL with a path, a tenant id that is neither GUID nor domain', async () => {
    await expect(connect('https://graph.evil.example')).rejects.toBeInstanceOf(ProviderHostNotAllowedError);
    await expect(connect('https://graph.microsoft.com/v1.0')).rejects.toMatchObject({
      code: 'invalid_org_url',
    });
    await expect(connect('https://graph.microsoft.com', '../../common')).rejects.toMatchObject({
      code: 'invalid_tenant_id',
    });
    const connector = await connect('https://graph.microsoft.com', '72f988bf-86f1-41af-91ab-2d7cd011db47');
    await connector.close();
  });
});
