import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { TrackedRunRepository } from '@app/platform/database/tracked-run/tracked-run.repository.js';
import { RestorePreviewEntity } from './restore-preview.entity.js';

type NewRestorePreview = Pick<
  RestorePreviewEntity,
  | 'id'
  | 'teamId'
  | 'connectionId'
  | 'backupId'
  | 'requestedBy'
  | 'resourceTypes'
  | 'resourceIds'
  | 'activateUsers'
  | 'options'
> &
  Partial<Pick<RestorePreviewEntity, 'undo'>>;

/** Team-scoped access to restore previews run as jobs; only this class touches their table. */
@Injectable()
export class RestorePreviewsRepository extends TrackedRunRepository<RestorePreviewEntity> {
  constructor(@InjectRepository(RestorePreviewEntity) rows: Repository<RestorePreviewEntity>) {
    super(rows, { queuedAs: 'pending', relations: { connection: true } });
  }

  /** Inserts a queued preview. @returns false when a row with its id exists */
  insertPending(preview: NewRestorePreview): Promise<boolean> {
    return this.insertQueued({ undo: null, ...preview, result: null, undoResult: null });
  }
}
