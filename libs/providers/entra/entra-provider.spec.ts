import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { ProviderHostNotAllowedError } from '@libs/providers/provider-errors.js';
import { requireProvider } from '@libs/providers/registry.js';

import { ENTRA_RESOURCE_TYPES, ENTRA_TYPE_DEFINITIONS } from './entra-resource-catalog.js';

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
      ['client_certificate', true],
    ]);
    // A secret or a certificate: alternatives of one group.
    expect(ENTRA.credentials.filter(({ oneOf }) => oneOf).map(({ name }) => name)).toEqual([
      'client_secret',
      'client_certificate',
    ]);
    expect(ENTRA.grants()).toEqual([
      'Organization.Read.All',
      'OrganizationalBranding.Read.All',
      'Domain.Read.All',
      'IdentityProvider.Read.All',
      'CustomSecAttributeDefinition.Read.All',
      'Policy.Read.All',
      'AuthenticationContext.Read.All',
      'Agreement.Read.All',
      'User.Read.All',
      'Group.Read.All',
      'Directory.Read.All',
      'AdministrativeUnit.Read.All',
      'Application.Read.All',
      'DelegatedPermissionGrant.Read.All',
      'RoleManagement.Read.Directory',
      'RoleManagementPolicy.Read.Directory',
      'RoleEligibilitySchedule.Read.Directory',
      'RoleAssignmentSchedule.Read.Directory',
      'Policy.Read.AuthenticationMethod',
      'Policy.Read.PermissionGrant',
      // Incremental backups read the native recovery jobs (entra-native-recovery.ts).
      'EntraBackup.Read.All',
      'AuditLog.Read.All',
    ]);
  });

  it('is documented in docs/resource-types.md: each type with its Graph path and permission, every grant', () => {
    const doc = readFileSync(new URL('../../../docs/resource-types.md', import.meta.url), 'utf8').split(
      '\n## Microsoft Entra ID',
    )[1];
    const rows = new Map(
      [...doc.matchAll(/^\| `([a-z0-9_]+)` +\| `GET ([^`]+)`[^|]*\| ([\w.]+) +\|/gm)].map((m) => [
        m[1],
        [m[2], m[3]],
      ]),
    );
    expect([...rows.keys()]).toEqual([...ENTRA_RESOURCE_TYPES]);
    for (const type of ENTRA_RESOURCE_TYPES) {
      const definition = ENTRA_TYPE_DEFINITIONS[type];
      const { template: path, permission } = definition;
      const query = 'query' in definition ? definition.query : undefined;
      const search = query
        ? `?${Object.entries(query)
            .map(([k, v]) => `${k}=${v}`)
            .join('&')}`
        : '';
      expect({ type, row: rows.get(type) }).toEqual({
        type,
        row: [expect.stringContaining(`${path.slice(5)}${search}`), permission],
      });
    }
    const grants = doc.split('Permissions to grant')[1].split('\n\n')[0];
    for (const grant of ENTRA.grants())
      expect(grants).toMatch(new RegExp(`\\b${grant.replace(/\./g, '\\.')}\\b`));
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
