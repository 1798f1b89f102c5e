import { Inject, Injectable } from '@nestjs/common';
import pMap from 'p-map';
import type { KeyRing } from '@libs/crypto/key-ring.js';
import { SecretCipher } from '@libs/crypto/secret-cipher.js';
import type { ObjectStore } from '@libs/object-store/object-store.js';
import { rewrapSnapshotKey } from '@libs/snapshot/snapshot-key-rotation.js';
import { SnapshotNotFoundError } from '@libs/snapshot/snapshot-errors.js';
import { keysetRows } from '@app/common/keyset-rows.js';
import { KEY_RING } from '@app/platform/security/key-ring.provider.js';
import { OBJECT_STORE } from '@app/platform/storage/storage.module.js';
import { SEALED_COLUMNS } from './sealed-columns.js';
import { KeyRotationRepository, type SealedRow } from './key-rotation.repository.js';

/** What one rotation did; `under` counts what now names each master key id. */
export interface KeyRotationReport {
  active_kid: string;
  secrets: { rewritten: number; unchanged: number };
  snapshots: { rewritten: number; unchanged: number; missing: number };
  /** secrets and snapshots per master key id after the run: a key absent here can leave MASTER_KEY */
  under: Record<string, number>;
}

const PAGE = 500;
/** Manifests re-wrapped at once: each is one GET and one PUT of a few kilobytes. */
const SNAPSHOT_CONCURRENCY = 8;

/**
 * Master key rotation (docs/operations.md "Rotating the master key"): re-encrypts every sealed
 * column (SEALED_COLUMNS) and re-wraps every stored snapshot's data key under the key ring's active
 * key, so the old keys can leave MASTER_KEY. Idempotent and resumable: what is under the active key
 * is left alone, each row and each manifest is rewritten on its own (an atomic UPDATE or PUT), so
 * a run stopped half-way is finished by running it again. Snapshot parts are never rewritten.
 */
@Injectable()
export class KeyRotationService {
  private readonly cipher: SecretCipher;

  constructor(
    private readonly rows: KeyRotationRepository,
    @Inject(KEY_RING) private readonly keyRing: KeyRing,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
  ) {
    this.cipher = new SecretCipher(keyRing);
  }

  /**
   * @throws UnknownKeyIdError when a secret or snapshot names a key no longer in MASTER_KEY;
   *   DecryptionError / SnapshotIntegrityError when one does not open (altered, moved)
   */
  async rotate(): Promise<KeyRotationReport> {
    const report: KeyRotationReport = {
      active_kid: this.keyRing.activeKid,
      secrets: { rewritten: 0, unchanged: 0 },
      snapshots: { rewritten: 0, unchanged: 0, missing: 0 },
      under: {},
    };
    const count = (kid: string) => (report.under[kid] = (report.under[kid] ?? 0) + 1);
    for (const sealed of SEALED_COLUMNS) {
      const rows = keysetRows<SealedRow>((after) => this.rows.sealedRows(sealed, after?.key, PAGE), PAGE);
      for await (const row of rows) {
        const token = this.cipher.reencryptSecret(row.token, sealed.aad(row.key));
        if (token === row.token) report.secrets.unchanged++;
        else {
          await this.rows.replace(sealed, row.key, row.token, token);
          report.secrets.rewritten++;
        }
        count(this.cipher.keyIdOf(token));
      }
    }
    const snapshots = keysetRows<{ id: string; storage_key: string }>(
      (after) => this.rows.completedBackups(after?.id, PAGE),
      PAGE,
    );
    await pMap(
      snapshots,
      async (backup) => {
        try {
          const { kid, rewritten } = await rewrapSnapshotKey({
            store: this.store,
            prefix: backup.storage_key,
            keyRing: this.keyRing,
          });
          report.snapshots[rewritten ? 'rewritten' : 'unchanged']++;
          count(kid);
        } catch (error) {
          // A completed backup whose objects are gone (removed from the bucket by hand) names no key.
          if (!(error instanceof SnapshotNotFoundError)) throw error;
          report.snapshots.missing++;
        }
      },
      { concurrency: SNAPSHOT_CONCURRENCY },
    );
    return report;
  }
}
