import type { GraphObject } from '@libs/providers/entra/graph-api-client.js';

/**
 * Members of a conditional access policy or named location Graph sets itself (v1.0 CSDL:
 * `policyDeletableItem.deletedDateTime`, the policy's `createdDateTime`/`modifiedDateTime`, and
 * `templateId`, which only creating from a template sets): never written, never compared.
 */
export const CONDITIONAL_ACCESS_SERVER_SET = [
  'id',
  'createdDateTime',
  'modifiedDateTime',
  'deletedDateTime',
  'templateId',
] as const;

/** An OData annotation (`@odata.context`, `authenticationStrength@odata.context`). */
function isAnnotation(name: string): boolean {
  return name.includes('@odata.') && name !== '@odata.type';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The grant controls' authentication strength as the reference a write sends: `{ id }`. */
function strengthReference(grant: Record<string, unknown>): Record<string, unknown> {
  const strength = grant.authenticationStrength;
  return isObject(strength) && typeof strength.id === 'string'
    ? { ...grant, authenticationStrength: { id: strength.id } }
    : grant;
}

/** `value` without OData annotations (`@odata.type` kept: it names a derived type), at any depth. */
export function withoutAnnotations(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutAnnotations);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([name]) => !isAnnotation(name))
      .map(([name, member]) => [name, withoutAnnotations(member)]),
  );
}

/**
 * The body a restore writes for a backed-up conditional access policy ("Create
 * conditionalAccessPolicy", "Update conditionalAccessPolicy"): the backup's members less what
 * Graph sets, annotations left out, the authentication strength as a reference `{ id }` (Graph
 * answers it expanded, but a write names it), and `grantControls`, `sessionControls` and
 * `description` sent as `null` when the backup has none, so an update clears what the live
 * policy has instead of leaving it (a PATCH keeps the members it is not given).
 */
export function conditionalAccessBody(data: GraphObject): GraphObject {
  const body: GraphObject = {};
  for (const [name, value] of Object.entries(withoutAnnotations(data) as GraphObject))
    if (!(CONDITIONAL_ACCESS_SERVER_SET as readonly string[]).includes(name)) body[name] = value;
  for (const name of ['grantControls', 'sessionControls', 'description']) body[name] ??= null;
  if (isObject(body.grantControls)) body.grantControls = strengthReference(body.grantControls);
  return body;
}

/** The number of controls a grant requires (built-in, custom, terms of use, authentication strength). */
function controlCount(grant: Record<string, unknown>): number {
  const length = (value: unknown): number => (Array.isArray(value) ? value.length : 0);
  return (
    length(grant.builtInControls) +
    length(grant.customAuthenticationFactors) +
    length(grant.termsOfUse) +
    (isObject(grant.authenticationStrength) ? 1 : 0)
  );
}

/**
 * `value` as compared: empty members (null, `[]`, `{}`, after their own cleaning) dropped at any
 * depth, and lists of strings sorted (every string list of a policy is a set: users, groups,
 * roles, applications, client app types, controls, risk levels, platforms, locations).
 */
function compared(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(compared).filter((item) => !isEmpty(item));
    return items.every((item) => typeof item === 'string') ? [...(items as string[])].sort() : items;
  }
  if (!isObject(value)) return value;
  const kept: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(value)) {
    const cleaned = compared(member);
    if (!isEmpty(cleaned)) kept[name] = cleaned;
  }
  return kept;
}

function isEmpty(value: unknown): boolean {
  return (
    value === null ||
    value === undefined ||
    (Array.isArray(value) && value.length === 0) ||
    (isObject(value) && Object.keys(value).length === 0)
  );
}

/**
 * What a restore compares of a conditional access policy, the same function applied to the
 * backup record and to the live one, so that Graph's rewrite of a written policy (docs/restore.md "Microsoft
 * Entra ID": "Graph rewrites conditional access policies on write"; the simulator's side is
 * conditional-access-normalization.ts) does not read as a difference:
 * - the write body's members (conditionalAccessBody: server-set members and annotations out,
 *   the authentication strength reduced to its id);
 * - empty members dropped: Graph answers absent condition sets as `null` and absent lists as
 *   `[]`, a backup read through another API version or tool may lack them;
 * - string lists sorted: they are sets, and Graph does not promise their order;
 * - the grant's `operator` dropped when it requires one control or none: one control is
 *   satisfied the same under `AND` and `OR`, and Graph answers `OR` for a policy written without
 *   one.
 */
export function conditionalAccessShape(data: GraphObject): GraphObject {
  const body = conditionalAccessBody(data);
  if (isObject(body.grantControls) && controlCount(body.grantControls) <= 1) {
    const { operator: _operator, ...grant } = body.grantControls;
    body.grantControls = grant;
  }
  return compared(body) as GraphObject;
}
