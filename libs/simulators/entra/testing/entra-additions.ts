import {
  ENTRA_TYPE_DEFINITIONS,
  type EntraResourceType,
} from '@libs/providers/entra/entra-resource-catalog.js';
import { ENTRA_SERVER_OWNED } from '@libs/providers/entra/restore/entra-restore-definition.js';
import type { EntraSnapshot, EntraSnapshotRecord } from '@libs/simulators/entra/snapshot.js';
import type { GraphTestClient } from './graph-client.js';

type Json = Record<string, unknown>;

/** What an addition did: the record id of the object added, else why none was. */
export interface Addition {
  id: string | null;
  /** why nothing was added: Graph's rule for the type, or what Graph answered */
  why?: string;
}

type Create = [method: string, path: string, body: Json];

/** Objects tried as a model per type before the addition gives up. */
const MODELS = 3;

/** A `$ref` body naming a directory object ("Add member", "Add owner"). */
const reference = (id: string) => ({
  '@odata.id': `https://graph.microsoft.com/v1.0/directoryObjects/${id}`,
});

/** A parent of `parents` and a user not yet linked to it by `links` (`<parentId>:<userId>` record ids). */
function unlinked(parents: EntraSnapshotRecord[], state: EntraSnapshot, links: EntraSnapshotRecord[]) {
  const held = new Set(links.map((link) => link.id));
  for (const parent of parents)
    for (const user of state.user ?? [])
      if (!held.has(`${parent.id}:${user.id}`)) return [parent.id, user.id];
  return null;
}

/** A `$ref` addition of a user under the catalog's path of `type` (a member, an owner). */
const link =
  (type: EntraResourceType, parent: EntraResourceType): ((state: EntraSnapshot) => Create | null) =>
  (state) => {
    const pair = unlinked(state[parent] ?? [], state, state[type] ?? []);
    const definition = ENTRA_TYPE_DEFINITIONS[type];
    if (!pair || !('template' in definition)) return null;
    return ['POST', `${definition.template.replace('{id}', pair[0])}/$ref`, reference(pair[1])];
  };

/**
 * Additions an admin makes otherwise than by posting a copy of an object: a link ("Add members",
 * "Add owners" with `$ref`), a user or a group (a copy would repeat a unique name), a user's
 * own consent to what the tenant granted ("Create oAuth2PermissionGrant", consentType Principal).
 */
const OWN_CREATES: Partial<
  Record<EntraResourceType, (state: EntraSnapshot, records: EntraSnapshotRecord[]) => Create | null>
> = {
  // "Create internalDomainFederation": a verified domain that had none (one federation a domain),
  // federated with a copy of a federation's settings under another issuer.
  domain_federation_configuration: (state, records) => {
    const federated = new Set(records.map((record) => record.id.split(':')[0]));
    const domain = (state.domain ?? []).find(
      ({ id, data }) => data.isVerified === true && data.isInitial !== true && !federated.has(id),
    );
    const model = records[0];
    if (!domain || !model) return null;
    const copy = renamed(model.data) ?? {};
    return [
      'POST',
      `/v1.0/domains/${encodeURIComponent(domain.id)}/federationConfiguration`,
      { ...copy, issuerUri: 'https://idp.added-since-backup.example.com/' },
    ];
  },
  user: (state) => [
    'POST',
    '/v1.0/users',
    {
      accountEnabled: true,
      displayName: 'Added since the backup',
      mailNickname: 'added.since.backup',
      userPrincipalName: `added.since.backup@${String(state.domain?.[0]?.id)}`,
      passwordProfile: { forceChangePasswordNextSignIn: true, password: 'Initial-Passw0rd!' },
    },
  ],
  group: () => [
    'POST',
    '/v1.0/groups',
    {
      displayName: 'Added since the backup',
      mailEnabled: false,
      mailNickname: 'added-since-backup',
      securityEnabled: true,
    },
  ],
  group_membership: link('group_membership', 'group'),
  group_owner: link('group_owner', 'group'),
  administrative_unit_member: link('administrative_unit_member', 'administrative_unit'),
  application_owner: link('application_owner', 'application'),
  oauth2_permission_grant: (state) => {
    const grant = (state.oauth2_permission_grant ?? []).find((g) => g.data.consentType === 'AllPrincipals');
    const user = state.user?.[0];
    return grant && user
      ? [
          'POST',
          '/v1.0/oauth2PermissionGrants',
          {
            clientId: grant.data.clientId,
            consentType: 'Principal',
            principalId: user.id,
            resourceId: grant.data.resourceId,
            scope: 'User.Read',
          },
        ]
      : null;
  },
};

/** Types whose objects an admin does not add, with why (their Graph reference pages). */
const NOT_ADDED: Partial<Record<EntraResourceType, string>> = {
  organization: 'one per tenant',
  domain: 'a domain is verified in DNS before it counts',
  user_manager: "a user's manager is a property of the user: its change is the change of the record",
  user_license: "a user's licences are a property of the user: their change is the change of the record",
  user_extension_values: "a user's extension values are properties of the user: changed, not added",
  attribute_set: 'Graph has no delete of an attribute set: an added one could not be undone',
  custom_security_attribute_definition:
    'Graph has no delete of a custom security attribute definition (deactivated only): an added one could not be undone',
  role_management_policy: 'Entra keeps one policy for each role',
  group_setting: 'Graph holds one setting per template (groupSetting.templateId), which a copy would repeat',
  role_management_policy_assignment: 'Entra assigns each role its policy',
};

/** Why Graph has no addition of an object of these kinds: a singleton, or one under its parent. */
const NO_CREATE: Partial<Record<string, string>> = {
  single: 'one per tenant: updated only',
  embedded: "the tenant's methods are fixed: each is enabled or disabled",
  extension_values: "a user's extension values are properties of the user: changed, not added",
};

/**
 * Adds one object of the type through Graph as an admin would: OWN_CREATES where the type has
 * one (from the tenant as it is now), else a copy of one of `records` (the models: without what
 * Graph sets itself and its OData annotations but its type, its display name marked " (added)")
 * posted to the type's collection. The addition counts only when the tenant holds a new record
 * of the type afterwards (`live`).
 * @returns the new record's id, or why none was added
 */
export async function addOne(
  graph: GraphTestClient,
  type: EntraResourceType,
  records: EntraSnapshotRecord[],
  live: () => EntraSnapshot,
): Promise<Addition> {
  const definition = ENTRA_TYPE_DEFINITIONS[type];
  const object = definition.kind === 'child' && definition.object === true;
  const refusal =
    NOT_ADDED[type] ?? NO_CREATE[definition.kind] ?? (object ? 'one per parent: updated only' : undefined);
  if (refusal) return { id: null, why: refusal };
  const state = live();
  const requests: Create[] = [];
  const own = OWN_CREATES[type];
  if (own) {
    const request = own(state, records);
    if (!request) return { id: null, why: 'nothing left to link' };
    requests.push(request);
  } else if ('template' in definition)
    for (const record of records.slice(0, MODELS)) {
      const copy = renamed(record.data);
      if (!copy) continue;
      requests.push(['POST', definition.template.replace('{id}', record.id.split(':')[0]), copy]);
    }
  if (requests.length === 0) return { id: null, why: 'its objects have no display name a copy could change' };
  const held = new Set((state[type] ?? []).map((record) => record.id));
  let last = '';
  for (const [method, path, body] of requests) {
    const answer = await graph.call(method, path, body);
    const added = (live()[type] ?? []).find((record) => !held.has(record.id));
    if (answer.status < 300 && added) return { id: added.id };
    const error = (answer.body as { error?: { code?: string; message?: string } } | undefined)?.error;
    last = `Graph answered ${answer.status}${error ? ` ${error.code}: ${error.message}` : ' (no new object)'}`;
  }
  return { id: null, why: last };
}

/** A copy to post: no property Graph sets, no OData annotation but `@odata.type`, the display name marked. */
function renamed(data: Json): Json | null {
  if (typeof data.displayName !== 'string' || data.displayName === '') return null;
  const copy = Object.fromEntries(
    Object.entries(data).filter(
      ([key]) => !ENTRA_SERVER_OWNED.includes(key) && (!key.startsWith('@odata') || key === '@odata.type'),
    ),
  );
  return { ...copy, displayName: `${data.displayName} (added)` };
}
