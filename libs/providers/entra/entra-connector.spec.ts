import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startEntraSimulator, type RunningEntraSimulator } from '@libs/simulators/entra/index.js';
import { csdlFile, scubaGearFile } from '@libs/simulators/entra/testing/fixture-paths.js';
import { graphCall } from '@libs/simulators/entra/testing/graph-client.js';
import { ProviderAuthError, ProviderHostNotAllowedError } from '@libs/providers/provider-errors.js';
import { collectRecords } from '@libs/providers/testing/collect-parts.js';

import { EntraConnector } from './entra-connector.js';
import { ENTRA_RESOURCE_TYPES, entraBackupPermissions } from './entra-resource-catalog.js';
import { AUDIT_LOG_PERMISSION } from './entra-audit-log.js';

const FIXTURE = scubaGearFile();

(FIXTURE ? describe : describe.skip)(
  'EntraConnector against the Graph simulator seeded from a real tenant',
  () => {
    let sim: RunningEntraSimulator;
    let app: { clientId: string; clientSecret: string };

    const connector = (
      credentials = app,
      extra: Partial<ConstructorParameters<typeof EntraConnector>[0]> = {},
    ) =>
      new EntraConnector({
        graphUrl: sim.baseUrl,
        tenantId: sim.tenantId,
        ...credentials,
        allowedHosts: ['login.microsoftonline.com', 'graph.microsoft.com', '127.0.0.1'],
        caCertPem: sim.caCertPem,
        ...extra,
      });

    beforeAll(async () => {
      // 1,200 users: more than one page of $top=999.
      sim = await startEntraSimulator({
        scubaGearFile: FIXTURE,
        csdlFile: csdlFile(),
        users: 1200,
        groups: 4,
      });
      app = sim.registerApp([...entraBackupPermissions(), AUDIT_LOG_PERMISSION]);
    });
    afterAll(async () => {
      await sim?.close();
    });

    it('collects every object of the tenant exactly, in dependency order', async () => {
      const entra = connector();
      try {
        await entra.verifyCredentials();
        const records = await collectRecords(entra);
        expect([...records.keys()]).toEqual([...ENTRA_RESOURCE_TYPES]);
        const expected = sim.snapshot();
        for (const type of ENTRA_RESOURCE_TYPES)
          expect((records.get(type) ?? []).map(({ id, name, data }) => ({ id, name, data }))).toEqual(
            expected[type],
          );
        expect(expected.conditional_access_policy).toHaveLength(7);
        expect(expected.user.length).toBe(1203);
        // One listing of the users with their managers and licences (entra-shared-listing.ts),
        // 13 pages as Graph answers an expanded list (100 a page), then two pages at $top=999 of
        // their directory extension values (no request per user), one token for the whole run.
        // Each type on its own took 2 + 13 + 2 + 2 = 19.
        expect(entra.stats().byEndpoint['GET /v1.0/users']).toBe(15);
        // The values are read with the names of the extension definitions the backup read: their
        // lists are not read again (the collector's `extension_values` hook).
        expect(entra.stats().byEndpoint['GET /v1.0/applications/{id}/extensionProperties']).toBe(
          expected.application.length,
        );
        const names = expected.extension_property.map(({ data }) => data.name);
        const withValues = expected.user_extension_values.filter(({ data }) => Object.keys(data).length > 1);
        expect(withValues).toHaveLength(2);
        for (const { data } of withValues)
          expect(Object.keys(data).filter((key) => key !== 'id')).toEqual(names);
        expect(entra.stats().byEndpoint['POST /{tenant}/oauth2/v2.0/token']).toBe(1);
      } finally {
        await entra.close();
      }
    });

    it('reads child types alone, listing their parents once each, with no record of the parents', async () => {
      const entra = connector();
      try {
        // Users' extension values alone: their hook reads the extension definitions itself.
        const types = [
          'user_extension_values',
          'app_role_assignment',
          'role_definition',
          'authentication_method_configuration',
        ];
        const records = await collectRecords(entra, { types });
        expect([...records.keys()]).toEqual(types);
        const expected = sim.snapshot();
        for (const type of types)
          expect(records.get(type)!.map(({ id, name, data }) => ({ id, name, data }))).toEqual(
            expected[type],
          );
        expect(expected.app_role_assignment.length).toBeGreaterThan(0);
        // The real tenant's method configurations (Fido2...), read from the policy's one answer.
        expect(expected.authentication_method_configuration.map(({ id }) => id)).toContain('Fido2');
        const calls = entra.stats().byEndpoint;
        expect(calls['GET /v1.0/servicePrincipals']).toBe(1);
        expect(expected.user_extension_values.length).toBeGreaterThan(0);
        expect(calls['GET /v1.0/applications/{id}/extensionProperties']).toBe(expected.application.length);
        expect(calls['GET /v1.0/policies/authenticationMethodsPolicy']).toBe(1);
        expect(calls['GET /v1.0/servicePrincipals/{id}/appRoleAssignedTo']).toBe(
          expected.service_principal.length,
        );
      } finally {
        await entra.close();
      }
    });

    it('records no branding for an organization without one (Graph answers 404)', async () => {
      const branding = await graphCall(
        sim,
        ['OrganizationalBranding.ReadWrite.All'],
        'DELETE',
        `/organization/${sim.tenantId}/branding`,
      );
      expect(branding.status).toBe(204);
      const entra = connector();
      try {
        const records = await collectRecords(entra, { types: ['organizational_branding', 'domain'] });
        expect(records.get('organizational_branding')).toEqual([]);
        expect(records.get('domain')!.length).toBeGreaterThan(0);
        expect(sim.snapshot().organizational_branding).toEqual([]);
      } finally {
        await entra.close();
      }
    });

    it('names the application permission a token lacks', async () => {
      const partial = sim.registerApp(
        [...entraBackupPermissions(), AUDIT_LOG_PERMISSION].filter((role) => role !== 'Policy.Read.All'),
      );
      const entra = connector(partial);
      try {
        await expect(entra.verifyCredentials()).rejects.toThrow(
          /lacks the application permission Policy\.Read\.All/,
        );
      } finally {
        await entra.close();
      }
    });

    it('accepts a broader permission in place of a read one (Directory.Read.All for users)', async () => {
      const broader = sim.registerApp([
        ...[...entraBackupPermissions(), AUDIT_LOG_PERMISSION].filter((role) => role !== 'User.Read.All'),
        'Directory.Read.All',
      ]);
      const entra = connector(broader);
      try {
        await expect(entra.verifyCredentials()).resolves.toBeUndefined();
      } finally {
        await entra.close();
      }
    });

    it('refuses a wrong secret with the identity platform error', async () => {
      const entra = connector({ clientId: app.clientId, clientSecret: 'wrong' });
      try {
        const error = await entra.verifyCredentials().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ProviderAuthError);
        expect((error as Error).message).toMatch(/invalid_client: AADSTS7000215/);
        expect((error as Error).message).not.toContain(app.clientSecret);
      } finally {
        await entra.close();
      }
    });

    it('refuses a Graph host outside the allowed hosts before any request', () => {
      expect(() => connector(app, { allowedHosts: ['graph.microsoft.com'] })).toThrow(
        ProviderHostNotAllowedError,
      );
    });
  },
);
