import type { SnapshotRecord } from '@libs/simulators/okta/index.js';
import type { SimulatorClient } from '@libs/simulators/okta/testing/simulator-client.js';
import { RESOURCE_DEFINITIONS } from '@libs/providers/okta/okta-resource-catalog.js';
import type { OktaResourceType } from '@libs/providers/okta/okta-resource-types.js';

type Json = Record<string, unknown>;

/** What was done to the org. */
export interface Damage {
  /** record ids deleted */
  deleted: string[];
  /** record ids changed */
  changed: string[];
}

/** Objects tried per type before the damage gives up (Okta refuses some: Everyone's members...). */
const CANDIDATES = 100;

/** Fields an admin would edit, in the order tried, on the object or its profile. */
const EDITABLE = ['description', 'displayName', 'label', 'title', 'name'];
/** Fields the server owns: not sent back in an edit. */
export const SERVER_OWNED = ['id', 'created', 'lastUpdated', '_links', '_embedded', 'status', 'system'];

/**
 * The object path of a record, from the catalog's list templates and the record id's components
 * (`<parentId>:<childId>`), as an admin would address it; null where the type has none (derived).
 */
export function itemPath(
  type: OktaResourceType,
  id: string,
  state: Record<string, SnapshotRecord[]>,
): string | null {
  const definition = RESOURCE_DEFINITIONS[type];
  const parts = id.split(':').map(encodeURIComponent);
  const fill = (template: string, values: string[]) => {
    let index = 0;
    return template.replace(/\{\w+\}/g, () => values[index++]);
  };
  switch (definition.kind) {
    case 'top':
      return `${definition.template}/${parts[0]}`;
    case 'child':
      if (typeof definition.template !== 'string') return roleTargetPath(id, state);
      return `${fill(definition.template, parts.slice(0, -1))}/${parts[parts.length - 1]}`;
    case 'child_objects':
      return fill(definition.objects.find((object) => object.key === id.split(':').pop())!.template, parts);
    case 'single':
      return definition.template;
    case 'users':
      return `/api/v1/users/${parts[0]}`;
    case 'policies':
      return `/api/v1/policies/${parts[0]}`;
    case 'admin_roles': {
      const owner = state.user.some((user) => user.id === id.split(':')[0]) ? 'users' : 'groups';
      return `/api/v1/${owner}/${parts[0]}/roles/${parts[1]}`;
    }
    case 'derived':
      return null;
  }
}

/** A role target's path: `<owner>/roles/<assignment>/targets/groups/<id>` or `.../catalog/apps/<name>[/<id>]`. */
function roleTargetPath(id: string, state: Record<string, SnapshotRecord[]>): string {
  const [owner, assignment] = id.split(':');
  const data = state.admin_role_target.find((target) => target.id === id)?.data ?? {};
  const ownerKind = state.user.some((user) => user.id === owner) ? 'users' : 'groups';
  const base = `/api/v1/${ownerKind}/${owner}/roles/${assignment}/targets`;
  if (typeof data.groupId === 'string') return `${base}/groups/${data.groupId}`;
  return `${base}/catalog/apps/${String(data.appName)}${typeof data.appId === 'string' ? `/${data.appId}` : ''}`;
}

/**
 * Deletes one object of the type, as an admin would through Okta's API (deactivating it first,
 * users twice), trying candidates until Okta lets one go. @returns its record id, or null when
 * Okta refuses them all (default and system objects, types that cannot be deleted)
 */
export async function deleteOne(
  okta: SimulatorClient,
  type: OktaResourceType,
  candidates: SnapshotRecord[],
  state: Record<string, SnapshotRecord[]>,
): Promise<string | null> {
  for (const record of withDependentsFirst(type, adminsFirst(candidates), state).slice(0, CANDIDATES)) {
    const path = itemPath(type, record.id, state);
    if (!path || type === 'group_schema') return null;
    if (record.data.status === 'ACTIVE') await okta.call('POST', `${path}/lifecycle/deactivate`);
    const times = type === 'user' ? 2 : 1;
    let status = 0;
    for (let i = 0; i < times; i++) status = (await okta.call('DELETE', path)).status;
    if (status < 300) return record.id;
  }
  return null;
}

/**
 * Changes one object of the type as an admin would: a type's own edit where it has one (a schema
 * gets a custom attribute, a mapping another expression, a theme another colour, an app another
 * sign-on policy), else its first editable text field (description, label, title or name, on the
 * object or its profile), replacing the object as Okta's update takes it. The change counts only
 * when the org's record of it is different afterwards.
 * @returns its record id, or null when no candidate could be changed
 */
export async function changeOne(
  okta: SimulatorClient,
  type: OktaResourceType,
  candidates: SnapshotRecord[],
  state: Record<string, SnapshotRecord[]>,
  live: () => Record<string, SnapshotRecord[]>,
): Promise<string | null> {
  for (const record of adminsFirst(candidates).slice(0, CANDIDATES)) {
    const request = OWN_EDITS[type]?.(record, state) ?? genericEdit(type, record, state);
    if (!request) continue;
    const [method, path, body] = request;
    const answer = await okta.call(method, path, { json: body });
    const after = live()[type].find((candidate) => candidate.id === record.id);
    if (answer.status < 300 && JSON.stringify(after?.data) !== JSON.stringify(record.data)) return record.id;
  }
  return null;
}

type Edit = [method: string, path: string, body: Json];

/** Edits of types whose objects an admin changes in their own way (Okta's update operations). */
const OWN_EDITS: Partial<
  Record<OktaResourceType, (record: SnapshotRecord, state: Record<string, SnapshotRecord[]>) => Edit | null>
> = {
  user_schema: (record, state) => [
    'POST',
    `/api/v1/meta/schemas/user/${schemaIdOf(record, state)}`,
    customAttribute('drillAttribute'),
  ],
  group_schema: () => ['POST', '/api/v1/meta/schemas/group/default', customAttribute('drillAttribute')],
  app_user_schema: (record) => [
    'POST',
    `/api/v1/meta/schemas/apps/${record.id.split(':')[0]}/default`,
    customAttribute('drillAttribute'),
  ],
  profile_mapping: (record) => {
    const [property] = Object.keys((record.data.properties ?? {}) as Json);
    if (!property) return null;
    return [
      'POST',
      `/api/v1/mappings/${record.id}`,
      { properties: { [property]: { expression: '"changed by the drill"', pushStatus: 'DONT_PUSH' } } },
    ];
  },
  brand_theme: (record) => {
    const [brandId, themeId] = record.id.split(':');
    const kept = Object.fromEntries(
      Object.entries(record.data).filter(([key]) => !SERVER_OWNED.includes(key) && !key.endsWith('Url')),
    );
    return ['PUT', `/api/v1/brands/${brandId}/themes/${themeId}`, { ...kept, primaryColorHex: '#123456' }];
  },
  email_template: (record) => {
    const [brandId, name] = record.id.split(':');
    const recipients = (record.data._embedded as { settings?: { recipients?: string } } | undefined)?.settings
      ?.recipients;
    return [
      'PUT',
      `/api/v1/brands/${brandId}/templates/email/${name}/settings`,
      { recipients: recipients === 'NO_USERS' ? 'ALL_USERS' : 'NO_USERS' },
    ];
  },
  app_feature: (record) => {
    const [appId, name] = record.id.split(':');
    const capabilities = (record.data.capabilities ?? {}) as Record<string, Record<string, unknown>>;
    if (name === 'INBOUND_PROVISIONING') {
      // Its PUT takes importSettings and importRules (CapabilitiesInboundProvisioningObject).
      const rules = (capabilities.importRules?.userCreateAndMatch ?? {}) as Record<string, unknown>;
      const userCreateAndMatch = { ...rules, autoConfirmNewUsers: rules.autoConfirmNewUsers !== true };
      return [
        'PUT',
        `/api/v1/apps/${appId}/features/${name}`,
        { importSettings: capabilities.importSettings ?? {}, importRules: { userCreateAndMatch } },
      ];
    }
    const update = (capabilities.update ?? {}) as { lifecycleDeactivate?: { status?: string } };
    const status = update.lifecycleDeactivate?.status === 'ENABLED' ? 'DISABLED' : 'ENABLED';
    return [
      'PUT',
      `/api/v1/apps/${appId}/features/${name}`,
      { update: { ...update, lifecycleDeactivate: { status } } },
    ];
  },
  app_sign_on_policy: (record, state) => {
    const [appId, policyId] = record.id.split(':');
    const other = state.policy.find(
      (policy) => policy.data.type === 'ACCESS_POLICY' && policy.id !== policyId,
    );
    return other ? ['PUT', `/api/v1/apps/${appId}/policies/${other.id}`, {}] : null;
  },
};

/** A PUT (POST for objects Okta updates that way) of the object with its first editable text field changed. */
function genericEdit(
  type: OktaResourceType,
  record: SnapshotRecord,
  state: Record<string, SnapshotRecord[]>,
): Edit | null {
  const path = itemPath(type, record.id, state);
  const edited = edit(record.data);
  if (!path || !edited) return null;
  const body = Object.fromEntries(Object.entries(edited).filter(([key]) => !SERVER_OWNED.includes(key)));
  return [POST_UPDATES.includes(type) ? 'POST' : 'PUT', path, body];
}

/** Types Okta updates with POST to the object's path (partial updates). */
const POST_UPDATES: readonly OktaResourceType[] = ['inline_hook', 'user_type'];

/** A schema update adding one custom string attribute. */
function customAttribute(name: string): Json {
  return {
    definitions: {
      custom: { id: '#custom', type: 'object', properties: { [name]: { title: 'Drill', type: 'string' } } },
    },
  };
}

/** A user type's schema id, from the type's `_links.schema`. */
function schemaIdOf(record: SnapshotRecord, state: Record<string, SnapshotRecord[]>): string {
  const type = state.user_type.find((candidate) => candidate.id === record.id.split(':')[0]);
  const href = (type?.data._links as { schema?: { href?: string } } | undefined)?.schema?.href ?? '';
  return href.split('/').pop() ?? 'default';
}

/**
 * Identity providers with profile mappings first: deleting one tests that a restore brings its
 * mappings back with it (docs/restore-fidelity.md). Other types keep their order.
 */
function withDependentsFirst(
  type: OktaResourceType,
  records: SnapshotRecord[],
  state: Record<string, SnapshotRecord[]>,
): SnapshotRecord[] {
  if (type !== 'identity_provider') return records;
  const mapped = new Set(state.profile_mapping.map((mapping) => String((mapping.data.source as Json)?.id)));
  return [...records.filter((record) => mapped.has(record.id)), ...records.filter((r) => !mapped.has(r.id))];
}

/** An admin's own objects before Okta's system and default ones, which an admin rarely touches. */
function adminsFirst(records: SnapshotRecord[]): SnapshotRecord[] {
  const okta = (record: SnapshotRecord) => record.data.system === true || record.data.default === true;
  return [...records.filter((record) => !okta(record)), ...records.filter(okta)];
}

/** The object with its first editable text field changed, or null when it has none. */
function edit(data: Json): Json | null {
  for (const holder of [data, data.profile as Json | undefined]) {
    if (!holder || typeof holder !== 'object') continue;
    const field = EDITABLE.find((name) => typeof holder[name] === 'string' && holder[name] !== '');
    if (!field) continue;
    const changed = { ...holder, [field]: `${String(holder[field])} (changed)` };
    return holder === data ? changed : { ...data, profile: changed };
  }
  return null;
}
