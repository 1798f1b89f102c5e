import { Inject, Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import type { KeyRing } from '@libs/crypto/key-ring.js';
import type { ObjectStore } from '@libs/object-store/object-store.js';
import { requireProvider } from '@libs/providers/registry.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import type { RestorePackage } from '@libs/providers/restore-package.js';
import type { RestoreSelection } from '@libs/restore/scope.js';
import type { OpenedBackup } from '@app/backups/backup-snapshots.service.js';
import { NotFoundError } from '@app/common/errors.js';
import type { AppConfig } from '@app/platform/config/app-config.js';
import { APP_CONFIG } from '@app/platform/config/config.module.js';
import { type SignedReportQuery, ReportUrlSigner } from '@app/common/downloads/report-url.js';
import { zipPack } from '@app/common/downloads/zip-pack.js';
import { KEY_RING } from '@app/platform/security/key-ring.provider.js';
import { OBJECT_STORE } from '@app/platform/storage/storage.module.js';

/** Where restore packages are downloaded from (a signed URL, no bearer token). */
export const PACKAGE_ROUTE = { path: '/api/restore/packages', label: 'restore-package' };

/** The object key of a restore's package, under the team's prefix (account deletion takes it). */
function packageKey(teamId: string, restoreId: string): string {
  return `teams/${teamId}/restores/${restoreId}/package.zip`;
}

/**
 * Re-import packages: what a restore of a provider that cannot be written through an API hands
 * back (the descriptor's `restorePackage`; Okta Workflows, docs/okta-workflows.md "Restore").
 * A package is a ZIP in the object store, downloaded through a signed URL as reports are.
 */
@Injectable()
export class RestorePackages {
  private readonly urls: ReportUrlSigner;

  constructor(
    @Inject(OBJECT_STORE) private readonly objects: ObjectStore,
    @Inject(KEY_RING) keyRing: KeyRing,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.urls = new ReportUrlSigner(keyRing, config.BASE_URL, config.REPORT_URL_TTL, PACKAGE_ROUTE);
  }

  /** Whether restores of the backup's provider are packages (nothing written to the provider). */
  appliesTo(opened: OpenedBackup): boolean {
    return requireProvider(opened.backup.connection.provider).restorePackage !== undefined;
  }

  /**
   * The package of the selection, from every record of the backup (a provider restored by hand
   * keeps small snapshots: a Workflows folder export is KBs to a few MB).
   * @throws Error when the provider makes no packages (check `appliesTo`); SnapshotIntegrityError
   */
  async build(opened: OpenedBackup, selection: RestoreSelection): Promise<RestorePackage> {
    const { backup, reader } = opened;
    const make = requireProvider(backup.connection.provider).restorePackage;
    if (!make) throw new Error(`${backup.connection.provider} restores are not packages`);
    const records: Record<string, ResourceRecord[]> = {};
    for (const type of reader.types) {
      records[type] = [];
      for await (const record of reader.readPart(type)) records[type].push(record);
    }
    return make({
      records,
      selection,
      backup: { id: backup.id, orgUrl: backup.connection.orgUrl, startedAt: backup.startedAt.toISOString() },
      now: new Date().toISOString(),
    });
  }

  /** Zips and stores a restore's package. @returns its object key */
  async save(teamId: string, restoreId: string, pkg: RestorePackage): Promise<string> {
    const zip = zipPack(
      pkg.files.map((file) => ({
        path: file.path,
        content: async function* () {
          yield file.content;
        },
      })),
      new Date(),
    );
    const chunks: Buffer[] = [];
    for await (const chunk of zip) chunks.push(chunk as Buffer);
    const key = packageKey(teamId, restoreId);
    await this.objects.put(key, Buffer.concat(chunks), { contentType: 'application/zip' });
    return key;
  }

  /** A signed download URL of the restore's package, and when it stops working (ISO 8601). */
  link(teamId: string, restoreId: string): { url: string; expires_at: string } {
    const { url, expiresAt } = this.urls.sign(teamId, restoreId);
    return { url, expires_at: expiresAt };
  }

  /**
   * The package a signed URL names.
   * @throws ForbiddenError for an expired, altered or other package's signature; NotFoundError when gone
   */
  async download(restoreId: string, query: SignedReportQuery): Promise<{ body: Readable; filename: string }> {
    const teamId = this.urls.verify(restoreId, query);
    const key = packageKey(teamId, restoreId);
    if (!(await this.objects.head(key))) throw new NotFoundError('Restore package');
    return { body: await this.objects.get(key), filename: `restore-${restoreId}.zip` };
  }
}
