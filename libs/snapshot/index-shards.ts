/**
 * A part's content-hash index is split into this many shards by a hash of the record id, so that
 * finding one record's hash (timeline, restore of one resource) reads 1/16 of the index, and diff
 * holds one shard's entries at a time. Part of the stored format: changing it changes where
 * readers look.
 */
export const INDEX_SHARDS = 16;

/**
 * gzip window of index shards, as a power of two: 2 KiB, about sixteen entries. An entry is mostly
 * a 64-digit hex hash, which has nothing to find further back, and what repeats (the member names,
 * an id's prefix) lies in the entries just before. Against zlib's default 32 KiB, level 1
 * compresses an index 1.6 times as fast (180 MB/s against 110) to the same size (41 % of its
 * text); it is the window's hash chains that cost, not the matches. Readers inflate any window
 * (RFC 1951 section 3.2.5: distances up to 32 KiB), so this is no part of the stored format.
 */
export const INDEX_GZIP_WINDOW_BITS = 11;

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
