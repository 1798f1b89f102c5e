import type { OktaObject } from '@libs/providers/okta/okta-api-client.js';
import { collectionDefinition } from '@libs/providers/okta/restore/collection-definition.js';
import {
  idParts,
  pick,
  type RestoreDefinition,
  type WriteContext,
} from '@libs/providers/okta/restore/restore-definition.js';
import type { LiveResource } from '@libs/providers/provider-restore.js';
import { app } from './app.js';
import { appUserSchema } from './app-user-schema.js';

const GROUP_SCOPED =
  'Okta assigns the members of an assigned group itself (scope GROUP): they come back with the group assignment';

/** What an app user assignment writes: all of a direct one, only the scope of one Okta made for a group. */
function appUserWritable(data: OktaObject): OktaObject {
  return data.scope === 'GROUP'
    ? { scope: 'GROUP' }
    : { scope: 'USER', ...pick(data, ['credentials', 'profile']) };
}

/**
 * App user assignments (Application Users API), `<appId>:<userId>`: only direct ones (scope
 * USER) are written; Okta makes GROUP-scoped ones itself from group assignments. A user Okta
 * assigns through a group since the backup is made direct again by assigning it with scope
 * USER (assignUserToApplication: "Indicates if the assignment is direct (USER) or by group
 * membership (GROUP)"); otherwise credentials and profile are updated (updateApplicationUser).
 */
const appUserAssignment = collectionDefinition(
  { path: '/api/v1/apps/{appId}/users', params: ['appId', 'userId'] },
  {
    writable: appUserWritable,
    managedBecause: (data) => (data.scope === 'GROUP' ? GROUP_SCOPED : null),
    notes: [
      'Only direct assignments are written: Okta assigns the members of assigned groups itself',
      "Users' app passwords (SWA, basic auth) are never backed up: users enter them again",
    ],
    async create(record, context) {
      await assignUser(record.id, record.data, context);
      return { id: record.id };
    },
    async find(record, context) {
      const [appId, userId] = idParts(record.id);
      const live = await context.api.object({
        template: '/api/v1/apps/{appId}/users/{userId}',
        params: { appId, userId },
        emptyOn: [404],
        signal: context.signal,
      });
      return live && { type: record.type, id: record.id, name: record.name, data: live };
    },
    async update(record, live, context) {
      if (record.data.scope === 'GROUP')
        return [
          'Left as a direct assignment (it was through a group): a restore does not turn it back into a group one',
        ];
      const [appId, userId] = idParts(live.id);
      const current = await context.api.object({
        template: '/api/v1/apps/{appId}/users/{userId}',
        params: { appId, userId },
        signal: context.signal,
      });
      if (current?.scope === 'GROUP') await assignUser(live.id, record.data, context);
      else
        await context.api.write({
          method: 'POST',
          template: '/api/v1/apps/{appId}/users/{userId}',
          params: { appId, userId },
          body: pick(record.data, ['credentials', 'profile']),
          signal: context.signal,
        });
      return [];
    },
  },
);

/** assignUserToApplication with scope USER. */
async function assignUser(recordId: string, data: OktaObject, context: WriteContext): Promise<void> {
  const [appId, userId] = idParts(recordId);
  await context.api.write({
    method: 'POST',
    template: '/api/v1/apps/{appId}/users',
    params: { appId },
    body: { id: userId, ...appUserWritable(data) },
    signal: context.signal,
  });
}

const priorityOf = (data: OktaObject) => (typeof data.priority === 'number' ? data.priority : 0);

/**
 * App group assignments (`PUT`/`DELETE /api/v1/apps/{appId}/groups/{groupId}`,
 * assignGroupToApplication: creates or replaces), `<appId>:<groupId>`: priority and app profile,
 * written one at a time in priority order so that the priorities end as backed up.
 */
const appGroupAssignment = collectionDefinition(
  { path: '/api/v1/apps/{appId}/groups', params: ['appId', 'groupId'], body: (writable) => writable },
  {
    writable: (data) => pick(data, ['priority', 'profile']),
    sequence: (a, b) => priorityOf(a.data) - priorityOf(b.data),
    async create(record, context) {
      await assignGroup(record.id, record.data, context);
      return { id: record.id };
    },
  },
);

/** assignGroupToApplication (PUT: creates or replaces the assignment). */
async function assignGroup(recordId: string, data: OktaObject, context: WriteContext): Promise<void> {
  const [appId, groupId] = idParts(recordId);
  await context.api.write({
    method: 'PUT',
    template: '/api/v1/apps/{appId}/groups/{groupId}',
    params: { appId, groupId },
    body: pick(data, ['priority', 'profile']),
    signal: context.signal,
  });
}

/**
 * App features (`PUT /api/v1/apps/{appId}/features/{featureName}` takes the capabilities),
 * `<appId>:<name>`: only changed; a feature exists once provisioning is set up.
 */
const appFeature: RestoreDefinition = {
  writable: (data) => pick(data, ['capabilities']),
  notes: [
    "Provisioning features exist once provisioning is set up in the Admin Console (its connection and token are never backed up): a restore puts back their settings, not the connection or the feature's status",
  ],
  async update(record, live, context) {
    const [appId, featureName] = idParts(live.id);
    await context.api.write({
      method: 'PUT',
      template: '/api/v1/apps/{appId}/features/{featureName}',
      params: { appId, featureName },
      body: record.data.capabilities ?? {},
      signal: context.signal,
    });
    return [];
  },
};

/**
 * The app's sign-on (authentication) policy, `<appId>:<policyId>` (read from the app's
 * `_links.accessPolicy`): assigned with `PUT /api/v1/apps/{appId}/policies/{policyId}`
 * (assignApplicationPolicy), which replaces the one the app had. An app has one, so the app
 * names it: a live record of another policy is the same assignment, changed.
 */
const appSignOnPolicy: RestoreDefinition = {
  writable: (data) => pick(data, ['policyId']),
  naturalKey: (record) => idParts(record.id)[0],
  notes: [
    'An app always has one sign-on policy: a restore assigns the backed-up one; Okta has no unassignment, so none is removed',
  ],
  async create(record, context) {
    await assignPolicy(record.id, record.data, context);
    return { id: record.id };
  },
  async update(record, live, context) {
    await assignPolicy(live.id, record.data, context);
    return [];
  },
};

async function assignPolicy(recordId: string, data: OktaObject, context: WriteContext): Promise<void> {
  await context.api.write({
    method: 'PUT',
    template: '/api/v1/apps/{appId}/policies/{policyId}',
    params: { appId: idParts(recordId)[0], policyId: String(data.policyId) },
    signal: context.signal,
  });
}

/** App signing keys: public parts only; Okta never returns a private key and deletes no key. */
const appSigningKey: RestoreDefinition = {
  notes: [
    'Private keys are never returned by Okta: a key missing from the org cannot be restored. A re-created app signs with a new key of its own: give the service provider its certificate; keys made since the backup stay (Okta deletes no app key)',
  ],
};

/**
 * OAuth 2.0 client secrets, `<appId>:<secretId>`: their values are never backed up, so a restore
 * only puts back the status of a secret that is still there (`lifecycle/activate|deactivate`).
 * None is deleted: a re-created app's new secret is the only one it has.
 */
/**
 * Why a prune keeps a client secret: Okta refuses to deactivate (and so to delete) the only secret
 * of a client (deactivateOAuth2ClientSecret, management.yaml).
 */
const LAST_SECRET =
  "Kept: the app's only client secret (Okta cannot deactivate a client's only secret, so cannot delete it)";

/**
 * The client secrets a prune must keep: the last secret of an app that stays (a re-created OIDC
 * app's new secret, which the backup cannot hold). Secrets of an app the prune deletes go with it.
 */
function guardLastSecrets(
  deleting: readonly LiveResource[],
  remaining: readonly LiveResource[],
  going: ReadonlySet<string>,
): Map<string, string> {
  const left = new Map<string, number>();
  for (const secret of remaining) {
    const appId = idParts(secret.id)[0];
    left.set(appId, (left.get(appId) ?? 0) + 1);
  }
  const kept = new Map<string, string>();
  for (const secret of deleting) {
    const appId = idParts(secret.id)[0];
    if (going.has(appId) || (left.get(appId) ?? 0) > 0) continue;
    kept.set(secret.id, LAST_SECRET);
    left.set(appId, 1);
  }
  return kept;
}

/**
 * OAuth 2.0 client secrets of OIDC apps (`<appId>:<secretId>`): never backed up in clear, so never
 * created; a status is put back (activate/deactivate), and a prune or an undo deletes a secret
 * added since the backup (deactivated first: "You can only delete an inactive secret",
 * deleteOAuth2ClientSecret), never an app's only one (guardLastSecrets).
 */
const appClientSecret: RestoreDefinition = {
  writable: (data) => pick(data, ['status']),
  notes: [
    'Client secrets are never backed up (Okta answers them in clear): a deleted secret cannot come back, and a re-created OIDC app gets a new one from Okta',
    "A prune (or an undo) deletes a client secret added since the backup, deactivated first; never an app's only secret, which Okta cannot deactivate",
  ],
  guardDeletions: guardLastSecrets,
  async remove(live, context) {
    const [appId, secretId] = idParts(live.id);
    const params = { appId, secretId };
    const template = '/api/v1/apps/{appId}/credentials/secrets/{secretId}';
    if (live.status === 'ACTIVE')
      await context.api.write({
        method: 'POST',
        template: `${template}/lifecycle/deactivate`,
        params,
        okOn: [404],
        signal: context.signal,
      });
    await context.api.write({ method: 'DELETE', template, params, okOn: [404], signal: context.signal });
  },
  async update(record, live, context) {
    const [appId, secretId] = idParts(live.id);
    const operation = record.data.status === 'ACTIVE' ? 'activate' : 'deactivate';
    await context.api.write({
      method: 'POST',
      template: `/api/v1/apps/{appId}/credentials/secrets/{secretId}/lifecycle/${operation}`,
      params: { appId, secretId },
      signal: context.signal,
    });
    return [];
  },
};

/** How a restore writes the apps category (Apps API and what hangs off an app). */
export function appDefinitions() {
  return {
    app,
    app_user_assignment: appUserAssignment,
    app_group_assignment: appGroupAssignment,
    app_feature: appFeature,
    app_user_schema: appUserSchema,
    app_sign_on_policy: appSignOnPolicy,
    app_signing_key: appSigningKey,
    app_client_secret: appClientSecret,
  } satisfies Record<string, RestoreDefinition>;
}
