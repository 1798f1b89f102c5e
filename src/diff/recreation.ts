import type { IndexShardChanges } from '@libs/snapshot/index-shard-diff.js';
import type { IdMap } from '@libs/providers/provider-restore.js';

/** A re-created object that differs from the one it replaces only in server-owned fields. */
export interface RecreatedPair {
  resourceType: string;
  /** its id in the `from` backup */
  previousId: string;
  /** its id in the `to` backup */
  id: string;
}

/**
 * What pairs an object a restore re-created with the one it replaces, in a diff of two backups of
 * one connection (docs/diff.md "Re-created objects").
 */
export interface Recreation {
  /**
   * ids of the `from` backup's objects to the ids the same objects have in the `to` backup: the
   * id map of the restores between the two (RestoreHistory.recreatedIds), turned around when
   * `from` is the later backup
   */
  ids: IdMap;
  /** fields, at any depth, left out when a pair is compared (the descriptor's `serverOwnedFields`) */
  serverOwned: ReadonlySet<string>;
  /** told of each pair that differs in nothing else (so no change is reported for it) */
  unchanged?(pair: RecreatedPair): void;
}

/**
 * An id of the `to` side for `id` of the `from` side: the id itself mapped, else each part of a
 * composite id (`<groupId>:<userId>`) mapped, so a re-created group's memberships pair with their
 * earlier selves even where the restore recorded only the group.
 */
function mappedId(id: string, ids: IdMap): string {
  const whole = ids.get(id);
  if (whole !== undefined) return whole;
  if (!id.includes(':')) return id;
  return id
    .split(':')
    .map((part) => ids.get(part) ?? part)
    .join(':');
}

/**
 * The type's removed and added records that are one object re-created: added id -> removed id.
 * @param located the type's index changes between the two backups
 */
export function recreatedPairs(
  type: string,
  located: IndexShardChanges,
  recreation: Recreation,
): Map<string, string> {
  const pairs = new Map<string, string>();
  if (recreation.ids.size === 0 || located.removed.length === 0 || located.added.length === 0) return pairs;
  const added = new Set(located.added.map((entry) => entry.id));
  for (const { id } of located.removed) {
    const now = mappedId(id, recreation.ids);
    if (now !== id && added.has(now) && !pairs.has(now)) pairs.set(now, id);
  }
  return pairs;
}

/**
 * Ids the provider gives objects, as whole tokens of a record's text: a GUID (Entra ID), else a
 * run of letters and digits (Okta's 20-character ids), so an id inside a URL or an expression is
 * found and a longer token is never cut.
 */
const ID_TOKEN = /[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|[A-Za-z0-9]+/g;

/**
 * `data` with every id `ids` maps replaced by its new id, so a reference to a re-created object
 * compares equal to the reference to it now; the same object when nothing is mapped.
 * @param own the record's own id, left as it is where it stands in its own text (a hook's URL
 *   naming the hook is not a reference to another object)
 */
export function rewriteIds(data: Record<string, unknown>, ids: IdMap, own?: string): Record<string, unknown> {
  if (ids.size === 0) return data;
  const text = JSON.stringify(data);
  let changed = false;
  const rewritten = text.replace(ID_TOKEN, (token) => {
    const now = token === own ? undefined : ids.get(token);
    if (now === undefined) return token;
    changed = true;
    return now;
  });
  return changed ? (JSON.parse(rewritten) as Record<string, unknown>) : data;
}
