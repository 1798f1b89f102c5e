import { afterAll, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';

import { cassettesDir, openApiFile } from '@libs/simulators/okta/testing/fixture-paths.js';
import { RequestSchemas } from '@libs/simulators/okta/testing/request-schema-paths.js';
import type { SimulatorOptions } from '@libs/simulators/okta/simulator-options.js';
import { OktaApiClient, type WriteRequest } from '@libs/providers/okta/okta-api-client.js';
import { OKTA_RESOURCE_TYPES, type OktaResourceType } from '@libs/providers/okta/okta-resource-types.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import { useRestoreTestOrg, type RestoreTestOrg } from '@libs/simulators/okta/testing/restore-test-org.js';

const schemaFile = openApiFile();
const recorded = cassettesDir();

/** Records of each type whose creation is checked, per org: enough to meet each shape, few enough to stay quick. */
const PER_TYPE = 20;

/** What the spy of captureWrites keeps besides the requests: the real write, and the client that sent them. */
interface Captured extends Array<WriteRequest> {
  send?: (request: WriteRequest) => Promise<unknown>;
}

/** The writes a restore sends, captured by a spy that calls through (they reach the simulator as they would reach Okta). */
function captureWrites(): Captured {
  const sent: Captured = [];
  beforeAll(() => {
    const write = OktaApiClient.prototype.write;
    jest.spyOn(OktaApiClient.prototype, 'write').mockImplementation(function (this: OktaApiClient, request) {
      sent.push(request);
      sent.send = (again) => write.call(this, again);
      return write.call(this, request);
    });
  });
  afterAll(() => {
    jest.restoreAllMocks();
  });
  return sent;
}

/** What a creation sent that the operation's request schema (management.yaml) requires and the body lacks. */
function missingMembers(schemas: RequestSchemas, sent: readonly WriteRequest[], what: string): string[] {
  const missing: string[] = [];
  for (const request of sent) {
    if (request.method !== 'POST' || request.body === undefined || /\/lifecycle\//.test(request.template))
      continue;
    for (const path of schemas.missingRequired(request.method, request.template, request.body) ?? [])
      missing.push(`${what} POST ${request.template}: ${path}`);
  }
  return missing;
}

/**
 * "Create bodies that real Okta refuses": every creation a restore definition sends must hold
 * every member its operation's request schema in management.yaml requires, or Okta answers 400
 * E0000001 "Api validation failed: {member}" and the object, with everything hanging off it,
 * stays lost. Every backed-up record of an org (up to PER_TYPE per type) is created again
 * through the restore definition, with the children the restore creates with it (`createdWith`)
 * as the executor passes them; the body of each creation is checked against the schema.
 */
function checkCreateBodies(name: string, options: SimulatorOptions): void {
  (schemaFile ? describe : describe.skip)(`create bodies of every restore definition: ${name}`, () => {
    let org: RestoreTestOrg;
    let schemas: RequestSchemas;
    const sent = captureWrites();

    beforeAll(async () => {
      schemas = await RequestSchemas.load(schemaFile as string);
    });
    useRestoreTestOrg(options, (started) => {
      org = started;
    });

    it('hold every member the request schema requires', async () => {
      const sut = org.restorer();
      const missing: string[] = [];
      let checked = 0;
      for (const type of OKTA_RESOURCE_TYPES) {
        const rule = sut.createdWith(type);
        const children = rule ? await org.records(rule.type as OktaResourceType) : [];
        for (const record of (await org.records(type)).slice(0, PER_TYPE)) {
          sent.length = 0;
          const own = record.id.split(':').pop();
          const together = children
            .filter((child) => child.id.split(':')[rule!.component] === own)
            .map((child) => child.id);
          // The object exists: Okta may refuse a second one (a taken name); the body is what counts.
          await sut.apply({ action: 'create', record, with: together }).catch(() => undefined);
          checked += sent.filter((request) => request.method === 'POST').length;
          missing.push(...missingMembers(schemas, sent, `${type} ${record.id}`));
        }
      }
      expect(checked).toBeGreaterThan(20);
      expect(missing).toEqual([]);
    }, 300_000);

    it('are refused by the simulator without any one required member, as Okta refuses them', async () => {
      const sut = org.restorer();
      const creations = new Map<string, WriteRequest>();
      for (const type of OKTA_RESOURCE_TYPES)
        for (const record of (await org.records(type)).slice(0, 1)) {
          sent.length = 0;
          await sut.apply({ action: 'create', record, with: [] }).catch(() => undefined);
          for (const request of sent)
            if (request.method === 'POST' && request.body && !/\/lifecycle\//.test(request.template))
              creations.set(request.template, request);
        }
      const accepted: string[] = [];
      let tried = 0;
      for (const [template, request] of creations) {
        const body = request.body as Record<string, unknown>;
        const required = (schemas.missingRequired('POST', template, {}) ?? []).map((path) => path.slice(1));
        for (const member of required.filter((name) => body[name] !== undefined)) {
          tried++;
          const { [member]: _left, ...without } = body;
          const answer = await sent.send!({ ...request, body: without }).then(
            () => 'accepted',
            (error: Error) => error.message,
          );
          if (!/HTTP 400 E0000001/.test(answer))
            accepted.push(`POST ${template} without ${member}: ${answer}`);
        }
      }
      expect(tried).toBeGreaterThan(5);
      expect(accepted).toEqual([]);
    }, 300_000);
  });
}

checkCreateBodies('generated org', { users: 20, groups: 5, apps: 6, seed: 7 });
if (recorded) {
  checkCreateBodies('recorded org oie-00', { fixturesDir: recorded, fixtureOrg: 'oie-00' });
  checkCreateBodies('recorded org classic-00', { fixturesDir: recorded, fixtureOrg: 'classic-00' });
}

/**
 * A custom role as Okta's Roles API documents it (IamRole: `label` and `description` required),
 * whose backup holds no permission: createRole requires `permissions`
 * (CreateIamRoleRequest.required, management.yaml) and Okta refuses a role without one (400
 * E0000001 "Api validation failed: permissions"). The restore must not send such a body.
 */
(schemaFile ? describe : describe.skip)(
  'create body of a custom role the backup holds no permission of',
  () => {
    let org: RestoreTestOrg;
    const sent = captureWrites();
    useRestoreTestOrg({ users: 2, groups: 1, apps: 1, seed: 3 }, (started) => {
      org = started;
    });
    beforeEach(() => {
      sent.length = 0;
    });

    it('is refused before anything is sent, saying what the backup lacks', async () => {
      const record: ResourceRecord = {
        type: 'custom_admin_role',
        id: 'cr0Yq6IJxGIr0ouum0g3',
        name: 'UserCreator',
        data: { id: 'cr0Yq6IJxGIr0ouum0g3', label: 'UserCreator', description: 'Create users' },
      };
      await expect(org.restorer().apply({ action: 'create', record, with: [] })).rejects.toThrow(
        /holds no permission.*requires at least one/,
      );
      expect(sent.filter((request) => request.method === 'POST')).toEqual([]);
      expect(await org.find('custom_admin_role', (r) => r.data.label === 'UserCreator')).toBeUndefined();
    });
  },
);
