import { assertObjectPrefix } from '@libs/object-store/object-key.js';

/**
 * Where a snapshot's objects live, relative to its prefix (DESIGN section 5:
 * `teams/<t>/users/<u>/connections/<c>/backups/<b>/`). Names inside the manifest are relative, so a
 * snapshot can be moved to another prefix as a whole.
 */
export const MANIFEST_NAME = 'manifest.json';

/** Resource types become object names, so they are held to the snake_case vocabulary. */
const TYPE_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;

/**
 * Names of a resource type's records (one framed object) and of its content-hash index shards
 * (`index-shards.ts`).
 * @returns undefined when `type` is not snake_case
 */
export function partNames(
  type: string,
): { records: string; indexShard: (shard: number) => string } | undefined {
  if (!TYPE_PATTERN.test(type)) return undefined;
  return {
    records: `parts/${type}.ndjson.gz.enc`,
    indexShard: (shard) => `index/${type}/${shard.toString(16).padStart(2, '0')}.ndjson.gz.enc`,
  };
}

/**
 * The snapshot's root: `prefix` with a trailing `/`.
 * @throws RangeError for an empty prefix; InvalidObjectKeyError for an invalid one
 */
export function snapshotRoot(prefix: string): string {
  if (prefix === '' || prefix === '/') throw new RangeError('a snapshot needs a non-empty prefix');
  const root = prefix.endsWith('/') ? prefix : `${prefix}/`;
  assertObjectPrefix(root);
  return root;
}

/**
 * Associated data for an encrypted object of a snapshot: binds it to its snapshot and its name, so
 * a part swapped for another type's, or for another snapshot's, fails authentication.
 */
export function objectAad(snapshotId: string, name: string): string {
  return `idp-backup/snapshot/v1/${snapshotId}/${name}`;
}
