import { rewrap } from '@libs/crypto/data-key.js';
import { KeyRing } from '@libs/crypto/key-ring.js';
import { ObjectStore } from '@libs/object-store/object-store.js';

import { MANIFEST_NAME, snapshotRoot } from './snapshot-layout.js';
import { parseEnvelope, readManifestObject, serializeEnvelope, withDataKey } from './snapshot-manifest.js';

/**
 * Master key rotation for one snapshot: re-wraps its data key under the key ring's active master
 * key and rewrites `manifest.json` (an atomic put). Parts are untouched and the snapshot's
 * fingerprint stays the same. Once every snapshot (and secret) is re-wrapped, the old master key
 * can leave the key ring.
 * @returns the key id now in use and whether the manifest was rewritten
 * @throws SnapshotNotFoundError; SnapshotIntegrityError when the data key does not unwrap
 */
export async function rewrapSnapshotKey(options: {
  store: ObjectStore;
  prefix: string;
  keyRing: KeyRing;
}): Promise<{ kid: string; rewritten: boolean }> {
  const root = snapshotRoot(options.prefix);
  const envelope = parseEnvelope(await readManifestObject(options.store, root));
  const dataKey = withDataKey(() => rewrap(envelope.dataKey, options.keyRing));
  if (dataKey === envelope.dataKey) return { kid: dataKey.kid, rewritten: false };
  await options.store.put(root + MANIFEST_NAME, serializeEnvelope({ ...envelope, dataKey }), {
    contentType: 'application/json',
  });
  return { kid: dataKey.kid, rewritten: true };
}
