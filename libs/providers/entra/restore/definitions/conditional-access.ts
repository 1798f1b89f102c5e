import { omit, pick } from '@libs/providers/kit/type-restore-definition.js';
import type { LiveResource } from '@libs/providers/provider-restore.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import type { EntraResourceType } from '@libs/providers/entra/entra-resource-catalog.js';
import type { GraphObject } from '@libs/providers/entra/graph-api-client.js';
import {
  CONDITIONAL_ACCESS_SERVER_SET,
  conditionalAccessBody,
  conditionalAccessShape,
  withoutAnnotations,
} from '@libs/providers/entra/restore/conditional-access-shape.js';
import {
  createdId,
  type EntraRestoreDefinition,
  type EntraWriteContext,
} from '@libs/providers/entra/restore/entra-restore-definition.js';
import { graphCollection } from '@libs/providers/entra/restore/graph-collection.js';
import { guardedState } from '@libs/providers/entra/restore/lockout-check.js';

const POLICIES = '/v1.0/identity/conditionalAccess/policies';
const STRENGTHS = '/v1.0/policies/authenticationStrengthPolicies';

const NEW_ID_AFTER_DELETE =
  "A deleted one comes back with a new id: Graph's restore from the conditional access deleted items takes no application permission; the policies that name it are written with the new id";
const BUILT_IN_STRENGTH =
  "A built-in authentication strength is Microsoft's, the same in every tenant: a restore never writes it";

const byDisplayName = (record: ResourceRecord): string | null =>
  typeof record.data.displayName === 'string' ? record.data.displayName : null;

/** The members of a custom authentication strength a restore writes ("Create authenticationStrengthPolicy"). */
function strengthWritable(data: GraphObject): GraphObject {
  const kept = pick(data, ['displayName', 'description', 'allowedCombinations', 'policyType']);
  // combinations are a set: Graph does not promise their order
  if (Array.isArray(kept.allowedCombinations))
    kept.allowedCombinations = [...kept.allowedCombinations].sort();
  return kept;
}

/**
 * A custom authentication strength brought to the record: "Update authenticationStrengthPolicy"
 * (PATCH) takes its name and description; its combinations change only through
 * "authenticationStrengthPolicy: updateAllowedCombinations" (POST), sent when they differ.
 */
async function updateStrength(record: ResourceRecord, live: LiveResource, context: EntraWriteContext) {
  const wanted = strengthWritable(record.data);
  await context.graph.write({
    method: 'PATCH',
    template: `${STRENGTHS}/{id}`,
    params: { id: live.id },
    body: { displayName: wanted.displayName, description: wanted.description ?? null },
    signal: context.signal,
  });
  const current = await context.graph.objectIfFound({
    template: `${STRENGTHS}/{id}`,
    params: { id: live.id },
    signal: context.signal,
  });
  const currentCombinations = current ? strengthWritable(current).allowedCombinations : undefined;
  if (JSON.stringify(currentCombinations) !== JSON.stringify(wanted.allowedCombinations))
    await context.graph.write({
      method: 'POST',
      template: `${STRENGTHS}/{id}/updateAllowedCombinations`,
      params: { id: live.id },
      body: { allowedCombinations: wanted.allowedCombinations ?? [] },
      signal: context.signal,
    });
  return [];
}

/**
 * A conditional access policy's body with the state the lockout guard allows
 * (lockout-check.ts), and the guard's notes.
 */
async function guardedBody(record: ResourceRecord, context: EntraWriteContext) {
  const body = conditionalAccessBody(record.data);
  const guarded = await guardedState(
    context.graph,
    body,
    context.options.restoreOptions?.enforce === true,
    context.signal,
  );
  return { body: { ...body, state: guarded.state }, notes: guarded.notes };
}

/**
 * Named locations, authentication strengths and conditional access policies ("Create
 * namedLocation", "Update namedLocation", "Create authenticationStrengthPolicy", "Create
 * conditionalAccessPolicy", "Update conditionalAccessPolicy" and their deletions):
 * - a named location is written with its `@odata.type` (ipNamedLocation, countryNamedLocation),
 *   which "Update namedLocation" requires;
 * - a policy is compared in the shape conditional-access-shape.ts gives both sides, so Graph's
 *   rewrite of what it stores is no difference, and written with its authentication strength as
 *   a reference; one that would block every Global Administrator who can sign in is written
 *   report-only unless the restore enforces (lockout-check.ts).
 */
export function conditionalAccessDefinitions(): Partial<Record<EntraResourceType, EntraRestoreDefinition>> {
  return {
    named_location: graphCollection(
      { path: '/v1.0/identity/conditionalAccess/namedLocations', params: ['id'] },
      {
        writable: (data) => omit(withoutAnnotations(data) as GraphObject, CONDITIONAL_ACCESS_SERVER_SET),
        naturalKey: byDisplayName,
        notes: [NEW_ID_AFTER_DELETE],
      },
    ),
    authentication_strength_policy: graphCollection(
      {
        path: STRENGTHS,
        params: ['id'],
        createBody: ({ policyType: _type, ...body }) => body,
      },
      {
        writable: strengthWritable,
        naturalKey: byDisplayName,
        managedBecause: (data) => (data.policyType === 'builtIn' ? BUILT_IN_STRENGTH : null),
        update: updateStrength,
        notes: [
          BUILT_IN_STRENGTH,
          'Combination configurations (FIDO2 key restrictions of a combination) are not restored',
        ],
      },
    ),
    conditional_access_policy: graphCollection(
      { path: POLICIES, params: ['id'] },
      {
        writable: conditionalAccessShape,
        naturalKey: byDisplayName,
        async create(record, context) {
          const { body, notes } = await guardedBody(record, context);
          const answer = await context.graph.write({
            method: 'POST',
            template: POLICIES,
            body,
            signal: context.signal,
          });
          return { id: createdId(answer, record.type), notes };
        },
        async update(record, live, context) {
          const { body, notes } = await guardedBody(record, context);
          await context.graph.write({
            method: 'PATCH',
            template: `${POLICIES}/{id}`,
            params: { id: live.id },
            body,
            signal: context.signal,
          });
          return notes;
        },
        notes: [
          NEW_ID_AFTER_DELETE,
          'A policy that would block every Global Administrator who can sign in is written report-only (enabledForReportingButNotEnforced) unless the restore enforces: enable it in the Entra admin center once checked',
        ],
      },
    ),
  };
}
