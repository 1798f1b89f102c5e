import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { TrackedRunRepository } from '@app/platform/database/tracked-run/tracked-run.repository.js';
import { ComplianceCheckEntity } from './compliance-check.entity.js';

type NewComplianceCheck = Pick<
  ComplianceCheckEntity,
  'id' | 'teamId' | 'connectionId' | 'backupId' | 'framework' | 'requestedBy' | 'clientId'
>;

/** Team-scoped access to compliance checks run as jobs; only this class touches their table. */
@Injectable()
export class ComplianceChecksRepository extends TrackedRunRepository<ComplianceCheckEntity> {
  constructor(@InjectRepository(ComplianceCheckEntity) rows: Repository<ComplianceCheckEntity>) {
    super(rows, { queuedAs: 'pending', relations: { connection: true } });
  }

  /** Inserts a queued check. @returns false when a row with its id exists */
  insertPending(check: NewComplianceCheck): Promise<boolean> {
    return this.insertQueued({ ...check, resultId: null });
  }
}
