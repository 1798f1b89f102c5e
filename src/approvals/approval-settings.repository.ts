import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { type Transaction, within } from '@app/platform/database/transaction.js';
import { ApprovalSettingsEntity } from './approval-settings.entity.js';

/** The settings a team saves (docs/approvals.md); no row reads as every switch off. */
export type ApprovalSettingsValues = Pick<
  ApprovalSettingsEntity,
  'enabled' | 'backupDelete' | 'connectionDelete' | 'accountDelete' | 'expiryHours'
>;

/** Off, with the default lifetime of a request (24 h). */
export const DEFAULT_APPROVAL_SETTINGS: ApprovalSettingsValues = {
  enabled: false,
  backupDelete: false,
  connectionDelete: false,
  accountDelete: false,
  expiryHours: 24,
};

/** Team-scoped access to `team_approval_settings`; only this class touches the table. */
@Injectable()
export class ApprovalSettingsRepository {
  constructor(
    @InjectRepository(ApprovalSettingsEntity) private readonly rows: Repository<ApprovalSettingsEntity>,
  ) {}

  /** The team's saved settings, or the defaults. */
  async find(teamId: string, tx?: Transaction): Promise<ApprovalSettingsValues & { updatedAt: Date | null }> {
    const row = await within(this.rows, tx).findOneBy({ teamId });
    return row ?? { ...DEFAULT_APPROVAL_SETTINGS, updatedAt: null };
  }

  async save(teamId: string, values: ApprovalSettingsValues, by: string, tx?: Transaction): Promise<void> {
    await within(this.rows, tx).upsert({ teamId, ...values, updatedBy: by }, ['teamId']);
  }
}
