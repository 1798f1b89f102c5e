/**
 * A snapshot that cannot be trusted or opened: altered or missing bytes, a manifest that does not
 * authenticate, a data key no master key in the ring unwraps (see `cause`), counts or digests that
 * disagree with the manifest. Nothing read from such a snapshot should be used.
 */
export class SnapshotIntegrityError extends Error {
  override readonly name: string = 'SnapshotIntegrityError';
}

/** No manifest under the prefix: the snapshot was never finished (or never started, or deleted). */
export class SnapshotNotFoundError extends Error {
  override readonly name: string = 'SnapshotNotFoundError';

  constructor(readonly prefix: string) {
    super(`no finished snapshot under "${prefix}" (no manifest)`);
  }
}

/** The writer was used against its rules (wrong record type, part written twice, after finish...). */
export class SnapshotWriteError extends Error {
  override readonly name: string = 'SnapshotWriteError';
}
