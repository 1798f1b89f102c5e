/**
 * A part's content-hash index is split into this many shards by a hash of the record id, so that
 * finding one record's hash (timeline, restore of one resource) reads 1/16 of the index, and diff
 * holds one shard's entries at a time. Part of the stored format: changing it changes where
 * readers look.
 */
export const INDEX_SHARDS = 16;

/**
 * The shard of a record id: 32-bit FNV-1a (Fowler, Noll, Vo) over the id's UTF-16 code units,
 * modulo {@link INDEX_SHARDS}. Stable across versions and platforms; not a security boundary.
 */
export function indexShardOf(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i += 1) {
    hash ^= id.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % INDEX_SHARDS;
}
