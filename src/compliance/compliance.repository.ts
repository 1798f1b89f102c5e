import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { QueryDeepPartialEntity, Repository } from 'typeorm';
import { violatesUnique } from '@app/platform/database/unique-violation.js';
import { ComplianceResultEntity } from './compliance-result.entity.js';
import { ComplianceRunEntity } from './compliance-run.entity.js';

export type NewComplianceRun = Omit<ComplianceRunEntity, 'id' | 'occurredAt'>;

/** Team-scoped access to stored compliance results and the run trail; only this class touches them. */
@Injectable()
export class ComplianceRepository {
  constructor(
    @InjectRepository(ComplianceResultEntity) private readonly results: Repository<ComplianceResultEntity>,
    @InjectRepository(ComplianceRunEntity) private readonly runs: Repository<ComplianceRunEntity>,
  ) {}

  findResult(
    teamId: string,
    backupId: string,
    framework: string,
    catalogueVersion: string,
  ): Promise<ComplianceResultEntity | null> {
    return this.results.findOne({ where: { teamId, backupId, framework, catalogueVersion } });
  }

  /** A stored result of the team by its id; null for a missing one or another team's. */
  findResultById(teamId: string, id: string): Promise<ComplianceResultEntity | null> {
    return this.results.findOne({ where: { teamId, id } });
  }

  /**
   * Stores a result. @returns the stored row: this one, or the one another request stored first
   * for the same backup, framework and catalogue version.
   */
  async saveResult(result: ComplianceResultEntity): Promise<ComplianceResultEntity> {
    try {
      // Findings are JSON whose values are `unknown`: TypeORM's deep-partial type cannot follow them.
      await this.results.insert(result as QueryDeepPartialEntity<ComplianceResultEntity>);
      return result;
    } catch (error) {
      if (!violatesUnique(error, 'compliance_results_one')) throw error;
      const stored = await this.findResult(
        result.teamId,
        result.backupId,
        result.framework,
        result.catalogueVersion,
      );
      if (!stored) throw error;
      return stored;
    }
  }

  async recordRun(run: NewComplianceRun): Promise<void> {
    await this.runs.insert(run);
  }
}
