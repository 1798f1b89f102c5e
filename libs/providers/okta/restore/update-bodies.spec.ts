import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';

import { cassettesDir, openApiFile } from '@libs/simulators/okta/testing/fixture-paths.js';
import { leafPaths, RequestSchemas } from '@libs/simulators/okta/testing/request-schema-paths.js';
import type { SimulatorOptions } from '@libs/simulators/okta/simulator-options.js';
import { OktaApiClient, type WriteRequest } from '@libs/providers/okta/okta-api-client.js';
import { OKTA_RESOURCE_TYPES } from '@libs/providers/okta/okta-resource-types.js';
import { useRestoreTestOrg, type RestoreTestOrg } from '@libs/simulators/okta/testing/restore-test-org.js';

const schemaFile = openApiFile();
const recorded = cassettesDir();

/**
 * Fields a backed-up record holds that its request schema does not mark read-only, though no
 * replacement body writes them, each with why (Okta's documentation, recorded exchanges).
 */
const NOT_IN_BODY: ReadonlyArray<{ types?: readonly string[]; path: RegExp; why: string }> = [
  {
    path: /^\/status$/,
    why: 'written through the lifecycle operations (activate/deactivate) the definition calls after the replacement; Okta ignores it in a replacement body (recorded)',
  },
  {
    path: /^\/(id|system|createdBy|lastUpdatedBy)$/,
    why: 'set by Okta: the id names the object in the path, `system` marks what Okta made, the audit fields name who wrote',
  },
  {
    types: ['authorization_server'],
    path: /^\/issuer$/,
    why: 'Okta derives the issuer from the server id and `issuerMode` (written)',
  },
  {
    types: ['user'],
    path: /^\/credentials\/password$/,
    why: 'Okta answers `password: {}` without its value: a backup has nothing to write',
  },
  {
    types: ['app_user_schema'],
    path: /^\/(title|properties\/profile\/allOf|definitions\/base\/)/,
    why: "updateApplicationUserProfile changes custom properties (`definitions.custom`); the base properties and the document's structure are Okta's",
  },
];

/** Records of each type whose update is checked, per org: enough to meet each shape, few enough to stay quick. */
const PER_TYPE = 20;

/**
 * The rule (docs/restore-fidelity.md): "An update never sends a body that would clear a field the backup
 * holds." For every type a restore updates, every backed-up record of an org (up to PER_TYPE) is written back
 * onto itself through the restore definition, and the body of each replacement it sends must hold
 * every field of the record that the operation's request schema (management.yaml) can write.
 */
function checkUpdateBodies(name: string, options: SimulatorOptions): void {
  (schemaFile ? describe : describe.skip)(`update bodies of every restore definition: ${name}`, () => {
    let org: RestoreTestOrg;
    let schemas: RequestSchemas;
    const sent: WriteRequest[] = [];

    beforeAll(async () => {
      schemas = await RequestSchemas.load(schemaFile as string);
      const write = OktaApiClient.prototype.write;
      // A spy that calls through: the writes reach the simulator as they would reach Okta.
      jest.spyOn(OktaApiClient.prototype, 'write').mockImplementation(function (
        this: OktaApiClient,
        request,
      ) {
        sent.push(request);
        return write.call(this, request);
      });
    });
    afterAll(() => {
      jest.restoreAllMocks();
    });

    useRestoreTestOrg(options, (started) => {
      org = started;
    });

    it('send every writable field the backed-up record holds', async () => {
      const sut = org.restorer();
      const missing: string[] = [];
      let checked = 0;
      for (const type of OKTA_RESOURCE_TYPES) {
        for (const record of (await org.records(type)).slice(0, PER_TYPE)) {
          sent.length = 0;
          try {
            await sut.apply({ action: 'update', record, live: sut.live(record) });
          } catch (error) {
            // Types a restore cannot update, and objects Okta will not let anyone change.
            if (/cannot update|40\d|E0000/.test(String(error))) continue;
            throw error;
          }
          for (const request of sent) {
            if (
              request.method === 'DELETE' ||
              request.body === undefined ||
              /\/lifecycle\//.test(request.template)
            )
              continue;
            const writable = schemas.writablePaths(request.method, request.template, record.data);
            if (!writable) continue;
            checked++;
            const body = new Set(leafPaths(request.body));
            const covered = (path: string) =>
              [...body].some((b) => b === path || b.startsWith(`${path}/`) || path.startsWith(`${b}/`));
            const expected = writable.filter(
              (path) => !NOT_IN_BODY.some((n) => (!n.types || n.types.includes(type)) && n.path.test(path)),
            );
            for (const path of expected)
              if (!covered(path))
                missing.push(`${type} ${record.id} ${request.method} ${request.template}: ${path}`);
          }
        }
      }
      expect(checked).toBeGreaterThan(20);
      expect(missing).toEqual([]);
    }, 300_000);
  });
}

checkUpdateBodies('generated org', { users: 20, groups: 5, apps: 6, seed: 7 });
if (recorded) {
  checkUpdateBodies('recorded org oie-00', { fixturesDir: recorded, fixtureOrg: 'oie-00' });
  checkUpdateBodies('recorded org classic-00', { fixturesDir: recorded, fixtureOrg: 'classic-00' });
}
