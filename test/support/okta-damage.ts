import type { SnapshotRecord } from '../../libs/okta-simulator/index.js';
import type { SimulatorClient } from '../../libs/okta-simulator/testing/simulator-client.js';
import { RESOURCE_DEFINITIONS } from '../../libs/providers/okta/okta-resource-catalog.js';
import type { OktaResourceType } from '../../libs/providers/resource-types.js';

type Json = Record<string, unknown>;

/** What was done to the org. */
export interface Damage {
  /** record ids deleted */
  deleted: string[];
  /** record ids changed */
  changed: string[];
}

/** Fields an admin would edit, in the order tried, on the object or its profile. */
const EDITABLE = ['description', 'displayName', 'label', 'title', 'name'];
/** Fields the server owns: not sent back in an edit. */
const SERVER_OWNED = ['id', 'created', 'lastUpdated', '_links', '_embedded', 'status', 'system'];

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
  for (const record of candidates.slice(0, 4)) {
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
 * Changes one field an admin would edit on one object of the type (its description, label,
 * title or name, on the object or its profile), replacing the object as Okta's update takes it.
 * @returns its record id, or null when no candidate has such a field or Okta refuses the change
 */
export async function changeOne(
  okta: SimulatorClient,
  type: OktaResourceType,
  candidates: SnapshotRecord[],
  state: Record<string, SnapshotRecord[]>,
): Promise<string | null> {
  for (const record of candidates.slice(0, 4)) {
    const path = itemPath(type, record.id, state);
    const edited = edit(record.data);
    if (!path || !edited) continue;
    const body = Object.fromEntries(Object.entries(edited).filter(([key]) => !SERVER_OWNED.includes(key)));
    for (const method of ['PUT', 'POST']) {
      const answer = await okta.call(method, path, { json: body });
      if (answer.status < 300) return record.id;
      if (answer.status !== 404 && answer.status !== 405) break;
    }
  }
  return null;
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
