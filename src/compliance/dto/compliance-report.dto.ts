import type { Finding } from '@libs/compliance/compliance-types.js';
import type { ComplianceResultEntity } from '@app/compliance/compliance-result.entity.js';

/** Answer of POST /api/compliance/check: the spec's `{ score, findings, generatedAt }` and what an auditor needs besides. */
export interface ComplianceReportDto {
  score: number;
  findings: Finding[];
  generatedAt: string;
  backupId: string;
  connectionId: string;
  framework: string;
  framework_version: string;
  catalogue_version: string;
}

export function toComplianceReportDto(row: ComplianceResultEntity): ComplianceReportDto {
  return {
    score: row.score,
    findings: row.findings,
    generatedAt: row.generatedAt.toISOString(),
    backupId: row.backupId,
    connectionId: row.connectionId,
    framework: row.framework,
    framework_version: row.frameworkVersion,
    catalogue_version: row.catalogueVersion,
  };
}
