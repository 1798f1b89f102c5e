import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import {
  SEVERITIES,
  type Evidence,
  type EvidenceResource,
  type Finding,
  type FindingStatus,
  type Severity,
} from '@libs/compliance/compliance-types.js';
import { AnyJsonProperty } from '@app/common/openapi/json-patch-operation.dto.js';
import type { ComplianceResultEntity } from '@app/compliance/compliance-result.entity.js';

const FINDING_STATUSES: FindingStatus[] = ['pass', 'fail', 'warning', 'not_applicable', 'manual'];

@ApiSchema({ name: 'EvidenceResource' })
class EvidenceResourceDto implements EvidenceResource {
  @ApiProperty() id!: string;
  @ApiProperty({ type: String, nullable: true }) name!: string | null;
  @AnyJsonProperty({ description: 'The value read from this resource.', required: false }) observed?: unknown;
}

/** What a check saw, anchored to the backup it was read from (docs/compliance.md). */
@ApiSchema({ name: 'Evidence' })
class EvidenceDto implements Evidence {
  @ApiProperty({ format: 'uuid' }) backupId!: string;
  @ApiProperty({ format: 'date-time', description: 'When the backup started collecting.' })
  collectedAt!: string;
  @ApiProperty({ example: 'policy' }) resourceType!: string;
  @ApiProperty({ type: [EvidenceResourceDto], description: 'At most a bounded number; `total` counts all.' })
  resources!: EvidenceResourceDto[];
  @ApiProperty({ type: 'integer' }) total!: number;
  @ApiProperty({ type: [String], description: 'RFC 6901 pointers of the fields read in each record.' })
  pointers!: string[];
  @AnyJsonProperty() observed!: unknown;
  @AnyJsonProperty() expected!: unknown;
  @ApiPropertyOptional() note?: string;
}

/** One control, judged (spec "Compliance finding"). */
@ApiSchema({ name: 'ComplianceFinding' })
class ComplianceFindingDto implements Finding {
  @ApiProperty({ example: 'CC6.1' }) control!: string;
  @ApiProperty({ enum: FINDING_STATUSES }) status!: FindingStatus;
  @ApiProperty({ enum: SEVERITIES }) severity!: Severity;
  @ApiProperty({ type: EvidenceDto }) evidence!: EvidenceDto;
  @ApiProperty({ example: 'okta.password.min_length' }) check!: string;
  @ApiProperty() title!: string;
  @ApiProperty() requirement!: string;
  @ApiProperty() remediation!: string;
}

/** Answer of POST /api/compliance/check: the spec's `{ score, findings, generatedAt }` and what an auditor needs besides. */
@ApiSchema({ name: 'ComplianceReport' })
export class ComplianceReportDto {
  @ApiProperty({ minimum: 0, maximum: 100, example: 82 }) score!: number;
  @ApiProperty({ type: [ComplianceFindingDto] }) findings!: Finding[];
  @ApiProperty({ format: 'date-time' }) generatedAt!: string;
  @ApiProperty({ format: 'uuid' }) backupId!: string;
  @ApiProperty({ format: 'uuid' }) connectionId!: string;
  @ApiProperty({ example: 'soc2' }) framework!: string;
  @ApiProperty() framework_version!: string;
  @ApiProperty() catalogue_version!: string;
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
