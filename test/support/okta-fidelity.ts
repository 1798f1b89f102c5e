import { afterAll, beforeAll, describe, it } from '@jest/globals';
import type { SimulatorOptions } from '@libs/simulators/okta/index.js';
import { SimulatorClient } from '@libs/simulators/okta/testing/simulator-client.js';
import { OKTA_RESTORE_ORDER } from '@libs/providers/okta/restore/okta-restore-order.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import type { OktaResourceType } from '@libs/providers/okta/okta-resource-types.js';
import { restoreDefinitions } from '@libs/providers/okta/restore/definitions/index.js';
import { OKTA_PROVIDER } from '@libs/providers/okta/okta-provider.js';
import type { SnapshotReader } from '@libs/snapshot/snapshot-reader.js';
import { createConnection } from './backup-helpers.js';
import { changeOne, deleteOne } from '@libs/simulators/okta/testing/okta-damage.js';
import { startTestOrg, type TestOrg } from './okta-org.js';
import {
  fidelityTable,
  ROUND_TRIP_TOKEN_SECONDS,
  RoundTripRun,
  unavoidableList,
  withSection,
  updateDoc,
  type FidelityProvider,
  type Row,
  type Unavoidable,
} from './restore-fidelity.js';
import { RESTORE_SCOPES, type RestoreView } from './restore-helpers.js';
import { startTestApp, type TestApp, type TestClient } from './test-app.js';

type Json = Record<string, unknown>;

/**
 * Differences a faithful restore cannot avoid, per type: a field (JSON pointer into the record's
 * data) and why. Anything else that differs after the round trip fails the test.
 */
const UNAVOIDABLE: Partial<Record<OktaResourceType, Unavoidable[]>> = {
  user: [
    {
      path: /^\/status$/,
      why: 'a re-created user has no password: STAGED until activated (activateUsers sends the activation e-mail)',
    },
    {
      path: /^\/credentials\/(password|recovery_question)$/,
      why: 'Okta never returns passwords or recovery answers, so a re-created user has neither until the person sets them',
    },
    {
      path: /^\/credentials\/emails(\/|$)/,
      why: "not writable (neither UserCredentials nor UserCredentialsWritable in management.yaml has it): Okta derives a user's e-mail credentials from the profile and marks one VERIFIED once the person proves the address, which a re-created user has not done yet",
    },
  ],
  group_rule: [
    {
      path: /^\/allGroupsValid$/,
      why: 'computed by Okta, not part of GroupRule in management.yaml: whether every group the rule assigns to still exists (recorded: false, with status INVALID, once such a group is deleted); a re-created rule names groups that exist',
    },
  ],
  custom_admin_role: [
    {
      path: /^\/isCloneable$/,
      why: 'set by Okta: neither IamRole nor CreateIamRoleRequest (management.yaml) has it; recorded createRole answers `isCloneable: false` for a role an admin makes',
    },
  ],
  admin_role_assignment: [
    {
      path: /^\/label$/,
      why: "read-only (Role.label in management.yaml): Okta names an assignment after its role, and its names change (USER_ADMIN recorded as 'User Administrator' in one org, 'Group Administrator' in others): a re-created assignment has today's",
    },
  ],
  event_hook: [
    {
      path: /^\/verificationStatus$/,
      why: 'Okta verifies a hook with a call to its endpoint: a re-created event hook is UNVERIFIED until an admin verifies it',
    },
  ],
  app: [
    {
      path: /^\/settings\/emOptInStatus$/,
      why: 'read-only (ApplicationSettings.emOptInStatus): Okta sets the entitlement management status itself, and a re-created app starts without it',
    },
    {
      path: /^\/orn$/,
      why: "Okta's resource name of the app holds its id (`orn:okta:idp:<org>:apps:<name>:<id>`), new for a re-created app",
    },
    {
      path: /^\/visibility\/appLinks\/[^/]+_link$/,
      why: 'the link of a custom app is named after the app, which Okta names anew when it is re-created (see `/name`)',
    },
    {
      path: /^\/credentials\/signing\/kid$/,
      why: 'Okta never returns private keys: a re-created app signs with a new key (send the new certificate or metadata to the service provider)',
    },
    {
      path: /^\/name$/,
      why: 'Okta names a custom SAML or SWA app itself (`<subdomain>_<label>_<n>`) when it is created',
    },
  ],
  app_user_assignment: [
    {
      path: /^\/externalId$/,
      why: "the user's id in the app, which Okta sets when provisioning or an import links the user (AppUser.externalId), not a restore",
    },
  ],
  app_user_schema: [
    { path: /^\/name$/, why: "the schema carries its app's name, which Okta gives a re-created custom app" },
  ],
  authorization_server: [
    {
      path: /^\/credentials\/signing\//,
      why: 'Okta never returns private keys: a re-created authorization server signs with new keys',
    },
    {
      path: /^\/issuer$/,
      why: "a re-created authorization server's issuer holds its new id (clients must be told)",
    },
    {
      path: /^\/default$/,
      why: "a re-created server is never the org's default one: the API cannot make one",
    },
  ],
  authorization_server_scope: [
    {
      path: /^\/consent$/,
      added: 'IMPLICIT',
      why: 'a backed-up scope without `consent` (recorded so) is created without it, and Okta gives it the default, IMPLICIT (OAuth2ScopeConsentType in management.yaml)',
    },
  ],
  custom_domain: [
    {
      path: /^\/(dnsRecords|validationStatus)(\/|$)/,
      why: 'a re-created custom domain gets new DNS verification values from Okta and is unverified until the new records are set in DNS',
    },
  ],
};

/**
 * Types Okta makes itself with a re-created parent (a new app's signing key and client secret):
 * new records after the round trip, which no restore writes.
 */
const MADE_BY_OKTA = ['app_signing_key', 'app_client_secret'];

/**
 * Children Okta makes with a new parent, which a recording may not hold for the backed-up one:
 * a new authorization server's system scopes and claims, a new policy's system (catch-all)
 * rule, a new brand's theme, a new user type's schema, a new app's user schema, a new identity
 * provider's profile mappings (one to each user type), a new app's access policy (Identity Engine
 * gives every app one; a recorded app may have none), a new brand's email templates (Okta gives a
 * new brand today's whole set, listEmailTemplates; a brand recorded earlier may list fewer). Those the backup holds are restored and
 * paired; only the ones it lacks are new after the round trip.
 */
const MADE_WITH_PARENT: Partial<Record<OktaResourceType, (data: Json) => boolean>> = {
  policy_rule: (data) => data.system === true,
  authorization_server_scope: (data) => data.system === true,
  authorization_server_claim: (data) => data.system === true,
  brand_theme: () => true,
  email_template: () => true,
  user_schema: () => true,
  app_user_schema: () => true,
  profile_mapping: () => true,
  app_sign_on_policy: () => true,
};

/** The ids of what a record hangs off: a mapping's ends, else the first part of its record id. */
function parentsOf(type: string, id: string, data: Json): string[] {
  if (type !== 'profile_mapping') return [id.split(':')[0]];
  return [data.source, data.target].map((end) => String((end as Json | undefined)?.id));
}

/** Whether an added record (`<type> <id>`) is one Okta made itself (see MADE_BY_OKTA, MADE_WITH_PARENT). */
async function madeByOkta(added: string, restored: RestoreView, after: SnapshotReader): Promise<boolean> {
  const [type, id] = added.split(' ');
  if (MADE_BY_OKTA.includes(type)) return true;
  const withParent = MADE_WITH_PARENT[type as OktaResourceType];
  if (!withParent) return false;
  const data = (await after.findRecord(type, id))!.record.data;
  const recreated = new Set(
    restored.items.map((item) =>
      String(item.newId ?? '')
        .split(':')
        .pop(),
    ),
  );
  return parentsOf(type, id, data).some((parent) => recreated.has(parent)) && withParent(data);
}

/**
 * The damage column: what was done to the type's objects, or why nothing was (`refusal`: the
 * provider lets an admin neither delete nor change one, with the reason when known).
 */
function describeDamage(
  count: number,
  deleted: string | null,
  changed: string | null,
  refusal: string,
  empty = 'none in the generated org',
): string {
  if (count === 0) return empty;
  const done = [deleted && 'one deleted', changed && 'one changed'].filter(Boolean);
  return done.length ? done.join(', ') : refusal;
}

/** The restore's definitions, for the natural keys it matches records by. */
const DEFINITIONS = restoreDefinitions({ activateUsers: false });

/** Okta's part of the round trip (restore-fidelity.ts). */
export const OKTA_FIDELITY: FidelityProvider = {
  name: 'Okta',
  order: OKTA_RESTORE_ORDER,
  unavoidable: UNAVOIDABLE,
  // Server-owned fields of a record's data: new for every re-created object (the descriptor's,
  // which a diff also leaves out when it pairs a re-created object with the one it replaces).
  serverOwned: new Set(OKTA_PROVIDER.serverOwnedFields),
  madeByProvider: madeByOkta,
  naturalKey: (record) =>
    DEFINITIONS[record.type as OktaResourceType]?.naturalKey?.(record as ResourceRecord) ?? null,
};

/** Children before their parents: deleting an app first would leave its features nothing to test. */
export const TYPES = [...OKTA_RESTORE_ORDER].reverse();

/** An org the round trip runs on. */
export interface RoundTripOrg {
  /** Its section of docs/restore-fidelity.md: `generated`, or the recorded org's name. */
  section: string;
  options: SimulatorOptions;
  /** The types to damage and restore, children first; default all (a generated org). */
  types?: readonly OktaResourceType[];
  /** Types whose round trip still fails, with what is left to do: run as expected failures. */
  open?: Partial<Record<OktaResourceType, string>>;
}

/**
 * docs/restore.md, docs/restore-fidelity.md on recorded orgs: for every type, in restore order, a backup;
 * then the org damaged through Okta's API as an admin would (one object deleted, another changed,
 * where Okta allows); a selective restore of the type; a second backup (the next type's first);
 * and the diff of the two backups, which must be empty apart from re-created objects' new ids
 * (paired through the restore's items) and the documented differences above. The run writes its
 * table to its section of docs/restore-fidelity.md.
 */
export function describeRoundTrip(subject: RoundTripOrg): void {
  const types = subject.types ?? TYPES;
  describe(`restore fidelity (${subject.section}): back up, damage, restore, back up again, diff`, () => {
    let org: TestOrg;
    let okta: SimulatorClient;
    let ctx: TestApp;
    let admin: TestClient;
    let run: RoundTripRun;

    beforeAll(async () => {
      org = await startTestOrg(subject.options, RESTORE_SCOPES);
      okta = new SimulatorClient(org.sim);
      ctx = await startTestApp({ ...org.env, ACCESS_TOKEN_TTL: String(ROUND_TRIP_TOKEN_SECONDS) });
      admin = await ctx.newClient({ role: 'admin' });
      const connectionId = await createConnection(ctx, admin.token, {
        baseUrl: org.sim.baseUrl,
        ...org.integration,
      });
      run = new RoundTripRun(OKTA_FIDELITY, ctx, admin.token, connectionId);
      await run.backUp();
    });

    afterAll(async () => {
      if (run?.rows.length === types.length) writeSection(subject, run.rows);
      await ctx?.close();
      await okta?.close();
      await org?.sim.close();
    });

    for (const type of types)
      // A type still open (docs/restore-fidelity.md) is expected to fail; once it passes, the run says so.
      (subject.open?.[type] ? it.failing : it)(type, () => roundTrip(type));

    async function roundTrip(type: OktaResourceType): Promise<void> {
      const state = org.sim.snapshot();
      const records = state[type];
      const deleted = await deleteOne(okta, type, records, state);
      const others = records.filter((record) => record.id !== deleted);
      const changed = await changeOne(okta, type, others, org.sim.snapshot(), () => org.sim.snapshot());
      const damage = describeDamage(
        records.length,
        deleted,
        changed,
        'Okta lets an admin neither delete nor change one',
      );
      if (!deleted && !changed) run.untouched(type, damage);
      else await run.restore(type, damage, { open: subject.open?.[type] });
    }
  });
}

/** The heading of Okta's unavoidable differences: Okta's sections go before it. */
const UNAVOIDABLE_HEADING = '## Documented, unavoidable differences';

const HEAD = [
  '# Restore fidelity',
  '',
  'Generated by `test/restore-fidelity.e2e-spec.ts` and `test/restore-fidelity-recorded-*.e2e-spec.ts` (do not',
  "edit): for every type, in restore order, a backup of the org; the org damaged through Okta's API (one",
  'object deleted, another changed, where Okta lets an admin); a selective restore of the type; a second',
  "backup; and the diff of the two. Re-created objects are paired through the restore's new ids;",
  '"differences" are the fields that still differ (server-owned fields such as ids and creation times left',
  'out). "result": `lossless`, `documented` (only the unavoidable differences listed at the end) or `FAILS`.',
  'See docs/restore.md. Rows are in restore order; the test runs them children first.',
  '',
  '## Generated org',
  '',
  '<!-- generated -->',
  '<!-- /generated -->',
  '',
  '## Recorded fixtures',
  '',
  'Each org recorded in `../shared/fixtures/okta/vcr` (real Okta objects), seeded as one org real Okta',
  'could hold (libs/simulators/okta/README.md: later recordings win, objects that break an invariant left',
  'out with their reason), the same round trip on every type the org holds.',
  '',
  '## Documented, unavoidable differences',
  '',
  '<!-- unavoidable -->',
  '<!-- /unavoidable -->',
  '',
].join('\n');

/** Writes one org's table (and the list of unavoidable differences) into docs/restore-fidelity.md. */
function writeSection(subject: RoundTripOrg, rows: Row[]): void {
  const held = new Set(rows.map((row) => row.type));
  const absent = TYPES.filter((type) => !held.has(type));
  const table = fidelityTable(rows, OKTA_RESTORE_ORDER);
  updateDoc(HEAD, '<!-- generated -->', (current) => {
    const doc = withSection(current, 'unavoidable', unavoidableList(UNAVOIDABLE), UNAVOIDABLE_HEADING);
    return subject.section === 'generated'
      ? withSection(doc, 'generated', table, UNAVOIDABLE_HEADING)
      : withSection(
          doc,
          `recorded:${subject.section}`,
          [
            `### ${subject.section}`,
            '',
            table,
            ...(absent.length
              ? ['', `Not recorded in this org: ${absent.map((t) => `\`${t}\``).join(', ')}.`]
              : []),
          ].join('\n'),
          UNAVOIDABLE_HEADING,
        );
  });
}

/** Writes a recorded org that yields nothing to restore into its section, with why. */
export function writeEmptyOrg(section: string, why: string): void {
  updateDoc(HEAD, '<!-- generated -->', (doc) =>
    withSection(doc, `recorded:${section}`, `### ${section}\n\n${why}`, UNAVOIDABLE_HEADING),
  );
}
