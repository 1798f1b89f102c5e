import { idParts, omit } from '@libs/providers/kit/type-restore-definition.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import type { GraphObject } from '@libs/providers/entra/graph-api-client.js';
import { withoutAnnotations } from '@libs/providers/entra/restore/conditional-access-shape.js';
import {
  ENTRA_SERVER_OWNED,
  type EntraRestoreDefinition,
  type EntraWriteContext,
} from '@libs/providers/entra/restore/entra-restore-definition.js';

const POLICIES = '/v1.0/policies/permissionGrantPolicies';
const MEMBERS = ['includes', 'excludes'] as const;

/** Graph's built-in permission grant policies: their ids start with `microsoft-` ("permissionGrantPolicy"). */
export const BUILT_IN_GRANT_POLICY =
  "A built-in permission grant policy (microsoft-...) is Microsoft's: a restore never writes it";

/** A condition set without the id Graph gave it, its members in name order: what tells sets apart. */
function conditionSet(set: unknown): GraphObject {
  const plain = omit(withoutAnnotations(set) as GraphObject, ['id']);
  return Object.fromEntries(Object.entries(plain).sort(([a], [b]) => a.localeCompare(b)));
}

function conditionSets(data: GraphObject, member: (typeof MEMBERS)[number]): GraphObject[] {
  const sets = Array.isArray(data[member]) ? (data[member] as unknown[]) : [];
  return sets.map(conditionSet).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

/** What a restore writes and compares: name, description, and the condition sets without their ids. */
function writable(data: GraphObject): GraphObject {
  const kept = omit(withoutAnnotations(data) as GraphObject, [...ENTRA_SERVER_OWNED, ...MEMBERS]);
  for (const member of MEMBERS) kept[member] = conditionSets(data, member);
  return kept;
}

/**
 * Brings the policy's condition sets to the record's: sets the live policy has and the record
 * lacks are deleted ("Delete permissionGrantConditionSet from includes"), those it lacks are
 * added ("Create permissionGrantConditionSet in includes collection"), for includes and excludes.
 */
async function writeConditionSets(
  policyId: string,
  record: ResourceRecord,
  live: GraphObject | null,
  context: EntraWriteContext,
): Promise<void> {
  for (const member of MEMBERS) {
    const wanted = conditionSets(record.data, member).map((set) => JSON.stringify(set));
    const present = Array.isArray(live?.[member]) ? (live[member] as GraphObject[]) : [];
    const kept = new Set<string>();
    for (const set of present) {
      const key = JSON.stringify(conditionSet(set));
      if (wanted.includes(key) && !kept.has(key)) kept.add(key);
      else
        await context.graph.write({
          method: 'DELETE',
          template: `${POLICIES}/{id}/${member}/{setId}`,
          params: { id: policyId, setId: String(set.id) },
          okOn: [404],
          signal: context.signal,
        });
    }
    for (const key of wanted)
      if (!kept.has(key))
        await context.graph.write({
          method: 'POST',
          template: `${POLICIES}/{id}/${member}`,
          params: { id: policyId },
          body: JSON.parse(key) as GraphObject,
          retryNotFound: true,
          signal: context.signal,
        });
  }
}

/**
 * Permission grant policies ("Create permissionGrantPolicy": the caller names it; "Update
 * permissionGrantPolicy"; "Delete permissionGrantPolicy"; Policy.ReadWrite.PermissionGrant).
 * Their condition sets are navigation properties, "automatically expanded on GET" and written
 * after the policy through their own paths, so they are compared without the ids Graph gives
 * them and reconciled set by set.
 */
export function permissionGrantPolicyDefinition(): EntraRestoreDefinition {
  return {
    writable,
    naturalKey: (record) => idParts(record.id).pop() ?? null,
    managedBecause: (data) => (String(data.id ?? '').startsWith('microsoft-') ? BUILT_IN_GRANT_POLICY : null),
    async create(record, context) {
      const id = idParts(record.id).pop()!;
      const { includes: _includes, excludes: _excludes, ...body } = writable(record.data);
      await context.graph.write({
        method: 'POST',
        template: POLICIES,
        body: { id, ...body },
        signal: context.signal,
      });
      await writeConditionSets(id, record, null, context);
      return { id };
    },
    async update(record, live, context) {
      const { includes: _includes, excludes: _excludes, ...body } = writable(record.data);
      await context.graph.write({
        method: 'PATCH',
        template: `${POLICIES}/{id}`,
        params: { id: live.id },
        body,
        signal: context.signal,
      });
      const current = await context.graph.objectIfFound({
        template: `${POLICIES}/{id}`,
        params: { id: live.id },
        signal: context.signal,
      });
      await writeConditionSets(live.id, record, current, context);
      return [];
    },
    async remove(live, context) {
      await context.graph.write({
        method: 'DELETE',
        template: `${POLICIES}/{id}`,
        params: { id: live.id },
        okOn: [404],
        signal: context.signal,
      });
    },
    notes: [BUILT_IN_GRANT_POLICY],
  };
}
