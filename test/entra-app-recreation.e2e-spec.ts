import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { csdlFile, scubaGearFile } from '@libs/simulators/entra/testing/fixture-paths.js';
import type { BackupDto } from '@app/backups/dto/backup.dto.js';
import { runBackup } from './support/backup-helpers.js';
import { type EntraRestoreSetup, startEntraRestoreSetup } from './support/entra-restore-setup.js';
import { runRestore } from './support/restore-helpers.js';

const FIXTURE = scubaGearFile();

/** The tenant's own app administrator: app registrations and the app management policies. */
const ADMIN_ROLES = [
  'Application.ReadWrite.All',
  'Policy.Read.All',
  'Policy.ReadWrite.ApplicationConfiguration',
];

interface PreviewRow {
  resourceType: string;
  create: number;
  notes: string[];
}

type Json = Record<string, unknown>;

/**
 * Re-creating applications Graph deleted for good, end to end (HTTP API, real PostgreSQL, the
 * Graph simulator over HTTPS): an API app whose identifier URI another app has taken since, under
 * a default app management policy that now lets new apps add only `api://{appId}`
 * (identifierUriConfiguration `nonDefaultUriAddition`), is named in the preview and refused as
 * Graph refuses it; a SAML app comes back with a new token-signing certificate, whose thumbprint
 * the restore item gives, and the preview's runbook says where to upload it.
 */
(FIXTURE ? describe : describe.skip)(
  'Entra ID app re-creation rules (HTTP, real PostgreSQL, Graph simulator)',
  () => {
    let setup: EntraRestoreSetup;
    let backup: BackupDto;
    let api: Json;
    let saml: Json;
    let squatter: Json;
    const uri = 'https://orders.contoso.example/api';

    const auth = () => ({ Authorization: `Bearer ${setup.admin.token}` });
    const call = (method: string, path: string, body?: unknown) => setup.call(method, path, body);
    /** Deletes an application for good, its service principal with it ("Permanently delete an item"). */
    const purge = async (app: Json) => {
      const sps = (await call('GET', '/servicePrincipals')).value as Json[];
      const sp = sps.find((candidate) => candidate.appId === app.appId);
      await call('DELETE', `/applications/${String(app.id)}`);
      await call('DELETE', `/directory/deletedItems/${String(app.id)}`);
      if (sp) await call('DELETE', `/directory/deletedItems/${String(sp.id)}`);
    };

    beforeAll(async () => {
      setup = await startEntraRestoreSetup(
        { scubaGearFile: FIXTURE, csdlFile: csdlFile(), users: 8, groups: 2, seed: 52 },
        ADMIN_ROLES,
      );

      api = await call('POST', '/applications', { displayName: 'Orders API', identifierUris: [uri] });
      saml = await call('POST', '/applications', { displayName: 'Payroll (SAML)' });
      const sp = await call('POST', '/servicePrincipals', { appId: saml.appId });
      await call('PATCH', `/servicePrincipals/${String(sp.id)}`, { preferredSingleSignOnMode: 'saml' });
      backup = await runBackup(setup.ctx, setup.admin.token, { connectionId: setup.connectionId });
      expect(backup.status).toBe('completed');

      // The incident: both apps deleted for good; another app takes the URI; then the tenant
      // restricts new apps to their default URI.
      await purge(api);
      await purge(saml);
      squatter = await call('POST', '/applications', {
        displayName: 'Orders API (new)',
        identifierUris: [uri],
      });
      await call('PATCH', '/policies/defaultAppManagementPolicy', {
        applicationRestrictions: {
          passwordCredentials: [],
          keyCredentials: [],
          identifierUris: {
            nonDefaultUriAddition: {
              state: 'enabled',
              restrictForAppsCreatedAfterDateTime: '2025-01-01T00:00:00Z',
              excludeAppsReceivingV2Tokens: false,
              excludeSaml: false,
              isStateSetByMicrosoft: false,
              excludeActors: null,
            },
          },
        },
      });
    });
    afterAll(async () => {
      await setup?.close();
    });

    it('names the identifier URIs Graph would refuse in the preview, and the SAML runbook line', async () => {
      const preview = await setup.ctx.http
        .get('/api/restore')
        .set(auth())
        .query({ backupId: backup.id, resourceTypes: 'application,service_principal' });
      expect(preview.status).toBe(200);
      const rows = preview.body.preview as PreviewRow[];
      const applications = rows.find((row) => row.resourceType === 'application')!;
      expect(applications.create).toBe(2);
      const flagged = applications.notes.find((note) => note.includes('Orders API'))!;
      expect(flagged).toContain(`${uri} is held by application ${String(squatter.id)}`);
      expect(flagged).toContain('nonDefaultUriAddition');
      expect(applications.notes.some((note) => note.includes('Payroll'))).toBe(false);
      const sps = rows.find((row) => row.resourceType === 'service_principal')!;
      expect(sps.notes.join('\n')).toMatch(
        /new token-signing certificate.*upload the certificate to the service provider/,
      );
    });

    it('refuses the taken URI as Graph does, and gives the re-created SAML app a new signing certificate', async () => {
      const restored = await runRestore(setup.ctx, setup.admin.token, {
        backupId: backup.id,
        mode: 'selective',
        resourceTypes: ['application', 'service_principal'],
      });
      const apiItem = restored.items.find(
        (item) => item.resourceType === 'application' && item.resourceId === api.id,
      )!;
      expect(apiItem.outcome).toBe('failed');
      expect(String(apiItem.error)).toMatch(/identifierUris already exists/);

      const samlApp = restored.items.find(
        (item) => item.resourceType === 'application' && item.resourceId === saml.id,
      )!;
      expect(samlApp.outcome).toBe('ok');
      const spItem = restored.items.find(
        (item) =>
          item.resourceType === 'service_principal' && item.action === 'create' && item.outcome === 'ok',
      )!;
      const note = (spItem.notes as string[]).find((text) =>
        text.startsWith('New SAML token-signing certificate'),
      )!;
      const thumbprint = /certificate ([0-9A-F]{40})/.exec(note)![1];
      expect(note).toMatch(/Payroll \(SAML\)'s SAML settings/);
      const live = setup.tenant.sim.snapshot().service_principal.find(({ id }) => id === spItem.newId)!;
      expect(live.data.preferredSingleSignOnMode).toBe('saml');
      expect(live.data.preferredTokenSigningKeyThumbprint).toBe(thumbprint);
      expect(live.data.keyCredentials).toEqual([
        expect.objectContaining({ customKeyIdentifier: thumbprint, usage: 'Verify', key: null }),
      ]);
    });
  },
);
