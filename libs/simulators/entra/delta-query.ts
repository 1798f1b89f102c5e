import { json, type Reply } from '@libs/simulators/kit/http/reply.js';

import { GraphError } from './graph-error.js';
import { project, selectedProperties } from './odata-list.js';
import type { Collection, GraphObject, TenantState } from './tenant-state.js';

/** A collection delta queries track: `GET /v1.0/<path>/delta`. */
export interface DeltaSource {
  collection: Collection;
  /** the answer's `@odata.context` fragment, e.g. `users` */
  context: string;
  /** the properties returned without `$select` (users' default set) */
  defaults?: readonly string[];
  /** tracks the `members` relationship as `members@delta` (groups, "delta query groups") */
  members?: boolean;
}

/** Objects per delta page (Graph picks its own page size; clients follow `@odata.nextLink`). */
export const DELTA_PAGE_SIZE = 100;
/** "delta links for identity and access resources have a lifetime of seven (7) days" (Microsoft 365 Developer Blog, "Duration of change tracking tokens for identity and education resources"). */
export const DELTA_TOKEN_LIFETIME_MS = 7 * 24 * 3_600_000;

/** The state a `$skiptoken` (a page within a round) or `$deltatoken` (the next round) holds. */
interface SyncState {
  /** the change log's generation */
  g: string;
  /** the round covers the log in `(f, t]`; `f` absent for an initial round (every current object) */
  f?: number;
  t: number;
  /** offset into the round's entries (skip tokens) */
  o: number;
  /** the `$select` of the round's first request, kept for the rounds after it */
  s: string | null;
  /** when the token was issued, epoch ms */
  i: number;
}

/**
 * One page of a delta query ("Use delta query to track changes in Microsoft Graph data";
 * "delta query users", "delta query groups"). A first request (no token) starts a round over every
 * current object; `$deltatoken=latest` answers no object and a delta link from now (the "sync from
 * now" Entra resources support); a `@odata.deltaLink` starts a round over what changed since it.
 * Pages end with an opaque `@odata.nextLink` (`$skiptoken`) or, on the last, an
 * `@odata.deltaLink` (`$deltatoken`); both carry the round's `$select`. In a round of changes:
 * - created or restored objects come whole (shaped by `$select`);
 * - updated objects come as their `id` and the updated properties (with `$select`, only selected
 *   ones; an object whose selected properties did not change is not returned);
 * - removed objects as `{ id, "@removed": { reason } }`: `changed` when in the deleted items,
 *   `deleted` when gone for good;
 * - with `members` tracked and selected (or no `$select`), a group whose members changed carries
 *   `members@delta`: each added member as `{ @odata.type, id }`, each removed one with
 *   `"@removed": { "reason": "deleted" }` (an initial round lists every member).
 *
 * @throws GraphError 410 `resyncRequired` with a `Location` to start over for a token of a sync
 *   state the tenant no longer has or never issued ("delta query overview", "Synchronization
 *   reset"; Graph error codes: `resyncRequired`); 400 `syncStateNotFound` for a delta link older
 *   than seven days (the blog post above)
 */
export function deltaPage(
  state: TenantState,
  baseUrl: string,
  source: DeltaSource,
  url: URL,
  now = Date.now(),
): Reply {
  const path = url.pathname;
  // An empty `$deltatoken` is a first request: what a 410's `Location` names.
  const deltaToken = url.searchParams.get('$deltatoken') || null;
  const skipToken = url.searchParams.get('$skiptoken');
  const log = state.changes;
  let round: SyncState;
  if (deltaToken === 'latest') {
    const select = url.searchParams.get('$select');
    if (select !== null) selectedList(select);
    return page(baseUrl, path, source, [], {
      g: log.generation,
      t: log.position,
      o: 0,
      s: select,
      i: now,
    });
  } else if (deltaToken !== null || skipToken !== null) {
    const token = readToken(deltaToken ?? skipToken!, log.generation, baseUrl, path);
    if (deltaToken !== null) {
      if (now - token.i > DELTA_TOKEN_LIFETIME_MS)
        throw new GraphError(
          400,
          'syncStateNotFound',
          'The sync state generation is not found. The delta token is expired and data must be synchronized again.',
        );
      round = { ...token, f: token.t, t: log.position, o: 0, i: now };
    } else round = token;
  } else {
    const select = url.searchParams.get('$select');
    if (select !== null) selectedList(select);
    round = { g: log.generation, t: log.position, o: 0, s: select, i: now };
  }
  const entries = roundEntries(state, source, round);
  const slice = entries.slice(round.o, round.o + DELTA_PAGE_SIZE);
  return page(
    baseUrl,
    path,
    source,
    slice,
    round,
    round.o + DELTA_PAGE_SIZE < entries.length ? round.o + DELTA_PAGE_SIZE : undefined,
  );
}

function page(
  baseUrl: string,
  path: string,
  source: DeltaSource,
  value: GraphObject[],
  round: SyncState,
  nextOffset?: number,
): Reply {
  const link = new URL(path, baseUrl);
  if (nextOffset === undefined)
    link.searchParams.set('$deltatoken', encode({ g: round.g, t: round.t, o: 0, s: round.s, i: round.i }));
  else link.searchParams.set('$skiptoken', encode({ ...round, o: nextOffset }));
  return json(200, {
    '@odata.context': `${baseUrl}/v1.0/$metadata#${source.context}`,
    value,
    [nextOffset === undefined ? '@odata.deltaLink' : '@odata.nextLink']: link.toString(),
  });
}

/** Every entry of a round, in a stable order (the log's, then the collection's). */
function roundEntries(state: TenantState, source: DeltaSource, round: SyncState): GraphObject[] {
  const select = round.s === null ? undefined : selectedList(round.s);
  const properties = select?.filter((name) => name !== 'members');
  const shape = properties ?? source.defaults?.slice();
  const withMembers = source.members === true && (select === undefined || select.includes('members'));
  const objects = state.collection(source.collection);
  const memberRef = (id: string): GraphObject => ({ '@odata.type': state.directoryObjectType(id)!, id });
  if (round.f === undefined)
    return [...objects.values()].map((object) => ({
      id: object.id,
      ...project(object, shape),
      ...(withMembers ? { 'members@delta': (state.members.get(object.id) ?? []).map(memberRef) } : {}),
    }));
  const deltas = state.changes.objectsBetween(source.collection, round.f, round.t);
  const memberDeltas = withMembers ? state.changes.membersBetween(round.f, round.t) : new Map();
  const entries: GraphObject[] = [];
  for (const id of new Set([...deltas.keys(), ...memberDeltas.keys()])) {
    const delta = deltas.get(id);
    if (delta?.removed) {
      if (!delta.whole) entries.push({ id, '@removed': { reason: delta.removed } });
      continue;
    }
    const object = objects.get(id);
    if (!object) continue;
    let entry: GraphObject;
    if (delta?.whole) entry = { id, ...project(object, shape) };
    else {
      const changed = [...(delta?.props ?? [])].filter((name) => !shape || shape.includes(name));
      entry = { id, ...Object.fromEntries(changed.map((name) => [name, object[name] ?? null])) };
    }
    const members = memberDeltas.get(id);
    if (members)
      entry['members@delta'] = [...members].map(([memberId, member]) => ({
        '@odata.type': member.memberType,
        id: memberId,
        ...(member.removed ? { '@removed': { reason: 'deleted' } } : {}),
      }));
    if (Object.keys(entry).length > 1 || delta?.whole) entries.push(entry);
  }
  return entries;
}

/** The names of a `$select` (validated as a list request's). */
function selectedList(raw: string): string[] {
  const url = new URL('https://graph.invalid/');
  url.searchParams.set('$select', raw);
  return selectedProperties(url)!;
}

function encode(round: SyncState): string {
  return Buffer.from(JSON.stringify(round)).toString('base64url');
}

/** @throws GraphError 410 for a token not of this log's generation or not one at all */
function readToken(token: string, generation: string, baseUrl: string, path: string): SyncState {
  let round: Partial<SyncState> | undefined;
  try {
    round = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Partial<SyncState>;
  } catch {
    round = undefined;
  }
  if (round?.g !== generation || typeof round.t !== 'number' || typeof round.i !== 'number')
    throw new GraphError(
      410,
      'resyncRequired',
      'The delta token is no longer valid, and the app must reset the sync state.',
      undefined,
      { Location: `${baseUrl}${path}?$deltatoken=` },
    );
  return { g: generation, f: round.f, t: round.t, o: round.o ?? 0, s: round.s ?? null, i: round.i };
}
