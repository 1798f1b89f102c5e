import type { SnapshotRecord } from '@libs/simulators/okta/index.js';
import type { SimulatorClient } from '@libs/simulators/okta/testing/simulator-client.js';
import { RESOURCE_DEFINITIONS } from '@libs/providers/okta/okta-resource-catalog.js';
import type { OktaResourceType } from '@libs/providers/okta/okta-resource-types.js';
import { itemPath, SERVER_OWNED } from './okta-damage.js';

type Json = Record<string, unknown>;
type State = Record<string, SnapshotRecord[]>;

/** What an addition did: the record id of the object added, else why none was. */
export interface Addition {
  id: string | null;
  /** why nothing was added: Okta's rule for the type, or what Okta answered */
  why?: string;
}

/** Objects tried as a model per type before the addition gives up. */
const MODELS = 3;

type Create = [method: string, path: string, body: Json];

/** Two records of `from` and `to` not yet linked by `linked` (`<fromId>:<toId>` record ids). */
function unlinked(
  from: Array<Pick<SnapshotRecord, 'id'>>,
  to: Array<Pick<SnapshotRecord, 'id'>>,
  linked: SnapshotRecord[],
): [string, string] | null {
  const links = new Set(linked.map((record) => record.id));
  for (const a of from) for (const b of to) if (!links.has(`${a.id}:${b.id}`)) return [a.id, b.id];
  return null;
}

/** ACTIVE users: the ones Okta lets an admin assign, make an owner or give a role. */
const activeUsers = (state: State) => state.user.filter((user) => user.data.status === 'ACTIVE');
/** Groups an admin manages (OKTA_GROUP): Okta refuses members of Everyone and of app groups. */
const oktaGroups = (state: State) => state.group.filter((group) => group.data.type === 'OKTA_GROUP');

/**
 * Additions made through another operation than a POST of a copy to the type's list: a link
 * (a member, an owner, an assignment: Groups API "Assign a user", "Assign a group owner",
 * Applications API "Assign a user"/"Assign a group", Roles API "Assign a role to a user"), or an
 * object whose copy would clash (a user's login).
 */
const OWN_CREATES: Partial<Record<OktaResourceType, (state: State) => Create | null>> = {
  user: () => [
    'POST',
    '/api/v1/users?activate=false',
    {
      profile: {
        firstName: 'Added',
        lastName: 'Since the backup',
        email: 'added.since.backup@example.com',
        login: 'added.since.backup@example.com',
      },
    },
  ],
  group: () => ['POST', '/api/v1/groups', { profile: { name: 'Added since the backup' } }],
  // "Create a custom role": a role needs its permissions.
  custom_admin_role: () => [
    'POST',
    '/api/v1/iam/roles',
    { label: 'Added since the backup', description: 'Added', permissions: ['okta.users.read'] },
  ],
  // "Create a custom role permission": POST .../permissions/{permissionType}.
  custom_admin_role_permission: (state) => {
    const pair = unlinked(
      state.custom_admin_role,
      [{ id: 'okta.groups.read' }],
      state.custom_admin_role_permission,
    );
    return pair && ['POST', `/api/v1/iam/roles/${pair[0]}/permissions/${pair[1]}`, {}];
  },
  // "Create an OAuth 2.0 client secret" of an OIDC app that has one (an app keeps two at most).
  app_client_secret: (state) => {
    const secrets = state.app_client_secret.map((secret) => secret.id.split(':')[0]);
    const app = state.app.find(
      (candidate) =>
        candidate.data.signOnMode === 'OPENID_CONNECT' &&
        secrets.filter((appId) => appId === candidate.id).length === 1,
    );
    return app ? ['POST', `/api/v1/apps/${app.id}/credentials/secrets`, {}] : null;
  },
  // "Create a trusted origin": its origin is unique in the org, so a copy would repeat it.
  trusted_origin: () => [
    'POST',
    '/api/v1/trustedOrigins',
    {
      name: 'Added since the backup',
      origin: 'https://added-since-backup.example.com',
      scopes: [{ type: 'CORS' }],
    },
  ],
  // "Create a linked object definition": a primary and associated relationship, names unique.
  linked_object: () => [
    'POST',
    '/api/v1/meta/schemas/user/linkedObjects',
    {
      primary: { name: 'addedMentor', title: 'Added mentor', type: 'USER' },
      associated: { name: 'addedMentee', title: 'Added mentee', type: 'USER' },
    },
  ],
  // "Create a custom domain": a domain the org does not hold, its certificate managed by Okta.
  custom_domain: () => [
    'POST',
    '/api/v1/domains',
    { domain: 'added-since-backup.example.com', certificateSourceType: 'OKTA_MANAGED' },
  ],
  group_membership: (state) => {
    const pair = unlinked(oktaGroups(state), activeUsers(state), state.group_membership);
    return pair && ['PUT', `/api/v1/groups/${pair[0]}/users/${pair[1]}`, {}];
  },
  group_owner: (state) => {
    const pair = unlinked(oktaGroups(state), activeUsers(state), state.group_owner);
    return pair && ['POST', `/api/v1/groups/${pair[0]}/owners`, { id: pair[1], type: 'USER' }];
  },
  app_user_assignment: (state) => {
    const pair = unlinked(state.app, activeUsers(state), state.app_user_assignment);
    return pair && ['POST', `/api/v1/apps/${pair[0]}/users`, { id: pair[1] }];
  },
  app_group_assignment: (state) => {
    const pair = unlinked(state.app, oktaGroups(state), state.app_group_assignment);
    return pair && ['PUT', `/api/v1/apps/${pair[0]}/groups/${pair[1]}`, {}];
  },
  admin_role_assignment: (state) => {
    const admins = new Set(state.admin_role_assignment.map((assignment) => assignment.id.split(':')[0]));
    const user = activeUsers(state).find((candidate) => !admins.has(candidate.id));
    return user ? ['POST', `/api/v1/users/${user.id}/roles`, { type: 'READ_ONLY_ADMIN' }] : null;
  },
};

/** Why an addition of OWN_CREATES found nothing to add to, where more than "nothing left to link". */
const NONE_LEFT: Partial<Record<OktaResourceType, string>> = {
  app_client_secret:
    'no OIDC app holds exactly one secret: Okta keeps two at most, and an added one beside none could not be deleted (a client keeps its only secret)',
};

/** Why Okta has no way for an admin to add an object of these kinds: a singleton, or derived. */
const NO_CREATE: Partial<Record<string, string>> = {
  single: 'one object per org: updated only',
  child_objects: 'one object per parent, made by Okta with it: updated only',
  derived: "not an object: read off its parent's links",
};

/** Types whose objects an admin does not add, with why (Okta's API reference). */
const NOT_ADDED: Partial<Record<OktaResourceType, string>> = {
  authenticator:
    'Okta holds one authenticator per key (okta_email, okta_password...), which a copy would repeat, and has no delete of one',
  profile_mapping: 'Okta makes a mapping with its app or identity provider: there is no create of one',
  brand_theme: 'Okta makes a brand its one theme: there is no create of one',
  app_signing_key: 'Okta generates an app signing key and has no delete of one',
};

/**
 * Adds one object of the type as an admin would through Okta's API: a link where the type is one
 * (OWN_CREATES, from the org as it is now), else a copy of one of `records` (the models) (an admin's own first, without the fields Okta
 * owns, its name or label marked " (added)") posted to the type's list, as Okta's create operations
 * take them. The addition counts only when the org holds a new record of the type afterwards.
 * @returns the new record's id, or why none was added
 */
export async function addOne(
  okta: SimulatorClient,
  type: OktaResourceType,
  records: SnapshotRecord[],
  live: () => State,
): Promise<Addition> {
  const state = live();
  const kind = RESOURCE_DEFINITIONS[type].kind;
  const refusal = NOT_ADDED[type] ?? NO_CREATE[kind];
  if (refusal) return { id: null, why: refusal };
  const own = OWN_CREATES[type];
  const requests: Create[] = [];
  if (own) {
    const request = own(state);
    if (!request) return { id: null, why: NONE_LEFT[type] ?? 'nothing left to link' };
    requests.push(request);
  } else
    for (const record of models(records)) {
      const path = itemPath(type, record.id, state);
      const copy = renamed(type, record.data);
      if (!path || !copy) continue;
      const body = Object.fromEntries(Object.entries(copy).filter(([key]) => !SERVER_OWNED.includes(key)));
      requests.push(['POST', path.slice(0, path.lastIndexOf('/')), body]);
    }
  if (requests.length === 0)
    return { id: null, why: 'its objects have no name, label or title a copy could change' };
  const held = new Set(state[type].map((record) => record.id));
  let last = '';
  for (const [method, path, body] of requests) {
    const answer = await okta.call(method, path, { json: body });
    const added = live()[type].find((record) => !held.has(record.id));
    if (answer.status < 300 && added) return { id: added.id };
    last = `Okta answered ${answer.status}${answer.status < 300 ? ' (no new object)' : `: ${errorOf(answer.body)}`}`;
  }
  return { id: null, why: last };
}

/** Fields that name an object, unique in their org or parent: a copy changes each it has. */
const NAMES = ['name', 'label', 'displayName', 'title'];

/**
 * A copy of an object with every name it has (NAMES, on the object or its profile) changed: a
 * `name` gets "_added" (user type and scope names allow no spaces), the others " (added)". An
 * app's `name` is its catalog template, not a name. @returns null when it has no name to change
 */
function renamed(type: OktaResourceType, data: Json): Json | null {
  let changed = false;
  const rename = (holder: Json): Json =>
    Object.fromEntries(
      Object.entries(holder).map(([key, value]) => {
        if (!NAMES.includes(key) || typeof value !== 'string' || value === '') return [key, value];
        if (type === 'app' && key === 'name') return [key, value];
        changed = true;
        return [key, `${value}${key === 'name' ? '_added' : ' (added)'}`];
      }),
    );
  const profile = data.profile;
  const copy = {
    ...rename(data),
    ...(profile && typeof profile === 'object' ? { profile: rename(profile as Json) } : {}),
  };
  return changed ? copy : null;
}

/** The first MODELS objects, an admin's own before Okta's system and default ones. */
function models(records: SnapshotRecord[]): SnapshotRecord[] {
  const okta = (record: SnapshotRecord) => record.data.system === true || record.data.default === true;
  return [...records.filter((record) => !okta(record)), ...records.filter(okta)].slice(0, MODELS);
}

function errorOf(body: unknown): string {
  const error = (body ?? {}) as { errorCode?: string; errorSummary?: string };
  return [error.errorCode, error.errorSummary].filter(Boolean).join(' ');
}
