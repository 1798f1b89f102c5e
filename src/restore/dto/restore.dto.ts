import { ApiProperty, ApiPropertyOptional, ApiSchema, getSchemaPath } from '@nestjs/swagger';
import {
  trackedRunFields,
  TrackedRunFieldsDto,
} from '@app/platform/database/tracked-run/tracked-run-fields.js';
import { ConnectionRefDto, toConnectionRefDto } from '@app/connections/dto/connection-ref.dto.js';
import type { RestoreItemEntity } from '@app/restore/restore-item.entity.js';
import type { RestoreTypeSummary } from '@libs/restore/restore-types.js';
import type { RestoreEntity, RestoreMode, RestoreStatus } from '@app/restore/restore.entity.js';
import { AttributionFilterDto } from '@app/attribution/dto/attribution-filter.dto.js';
import { restoreOptionFields } from '@app/restore/restore-options.js';
import { declareRestoreOptionFields } from './restore-option-fields.js';
import { CrossOrgMappingDto } from '@app/restore/cross-org/dto/cross-org-mapping.dto.js';

/** Items of a restore counted by what was done: over every type (`totals`), or of one type. */
@ApiSchema({ name: 'RestoreTotals' })
export class RestoreTotalsDto {
  @ApiProperty({ type: 'integer' }) create!: number;
  @ApiProperty({ type: 'integer' }) update!: number;
  @ApiProperty({ type: 'integer' }) delete!: number;
  @ApiProperty({ type: 'integer' }) skip!: number;
  @ApiProperty({ type: 'integer' }) failed!: number;
}

/** What a restore did to one type. */
@ApiSchema({ name: 'RestoreTypeSummary' })
export class RestoreTypeSummaryDto extends RestoreTotalsDto {
  @ApiProperty({ type: [String], description: 'What came back differently, or was left alone and why.' })
  notes!: string[];
}

/** Where a restore's re-import package is downloaded (a signed URL, no bearer token). */
@ApiSchema({ name: 'RestorePackageLink' })
export class RestorePackageLinkDto {
  @ApiProperty({
    format: 'uri',
    example:
      'https://backup.example.com/api/restore/packages/6f1c2b1e-8a3d-4e2f-9b7c-1d2e3f4a5b6c?team=…&expires=…&kid=…&sig=…',
  })
  url!: string;
  @ApiProperty({ format: 'date-time' }) expires_at!: string;
}

/** A restore as the API returns it: snake_case like Backup (DESIGN section 4). */
@ApiSchema({ name: 'Restore' })
export class RestoreDto extends TrackedRunFieldsDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) connection_id!: string;
  @ApiProperty({ type: ConnectionRefDto }) connection!: ConnectionRefDto;
  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'null once retention deleted it.',
  })
  backup_id!: string | null;
  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The backup taken before writing: restore it to undo this restore.',
  })
  pre_restore_backup_id!: string | null;
  @ApiProperty({
    enum: ['full', 'selective', 'undo'],
    description: '`undo` (beyond the spec): the changes since the backup reversed (docs/restore.md).',
  })
  mode!: RestoreMode;
  @ApiPropertyOptional({
    type: AttributionFilterDto,
    nullable: true,
    description: 'An undo: the actor and window it was limited to; null for other restores.',
  })
  undo?: AttributionFilterDto | null;
  @ApiProperty({ type: [String], nullable: true }) resource_types!: string[] | null;
  @ApiProperty({ type: [String], nullable: true }) resource_ids!: string[] | null;
  @ApiProperty() prune!: boolean;
  @ApiProperty() activate_users!: boolean;
  @ApiProperty({ enum: ['pending', 'running', 'completed', 'partial', 'failed'] }) status!: RestoreStatus;
  @ApiProperty({ type: 'object', additionalProperties: { $ref: getSchemaPath(RestoreTypeSummaryDto) } })
  summary!: Record<string, RestoreTypeSummary>;
  @ApiProperty({ type: RestoreTotalsDto, description: 'Sums over every type (notes left out).' })
  totals!: Omit<RestoreTypeSummary, 'notes'>;
  @ApiPropertyOptional({
    type: RestorePackageLinkDto,
    description:
      'Beyond the spec, GET /api/restore/{restoreId} of a provider restored by hand (Okta Workflows): the re-import package (a ZIP of the `.folder`, table CSVs and RUNBOOK.md; docs/okta-workflows.md).',
  })
  package?: RestorePackageLinkDto;
  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description:
      'Beyond the spec: a restore into another org (`connection_id` is the org written to): the connection whose backup it restores.',
  })
  source_connection_id?: string | null;
  @ApiPropertyOptional({ type: CrossOrgMappingDto, description: 'A restore into another org: its mapping.' })
  mapping?: CrossOrgMappingDto;
}

// The providers' own restore switches (Entra ID: `enforce`), flat beside the others.
declareRestoreOptionFields('response', RestoreDto);

/** One item result (DESIGN section 4), in the order applied. */
@ApiSchema({ name: 'RestoreItem' })
export class RestoreItemDto {
  @ApiProperty() resourceType!: string;
  @ApiProperty({ description: 'Record id in the backup (for a deletion: in the live org).' })
  resourceId!: string;
  @ApiPropertyOptional({ type: String, nullable: true }) name!: string | null;
  @ApiProperty({ enum: ['create', 'update', 'delete', 'skip'] }) action!: string;
  @ApiProperty({ enum: ['ok', 'failed'] }) outcome!: string;
  @ApiPropertyOptional() error?: string;
  @ApiPropertyOptional({ description: 'The id after the write when it differs (re-created objects).' })
  newId?: string;
  @ApiProperty({ type: [String] }) notes!: string[];
}

/** GET /api/restore/history: one page, newest first, and the total across pages. */
@ApiSchema({ name: 'RestoreHistory' })
export class RestoreHistoryDto {
  @ApiProperty({ type: [RestoreDto] }) restores!: RestoreDto[];
  @ApiProperty({ type: 'integer' }) total!: number;
}

/** GET /api/restore/:restoreId: the restore and one page of its item results. */
@ApiSchema({ name: 'RestoreDetail' })
export class RestoreDetailDto {
  @ApiProperty({ type: RestoreDto }) restore!: RestoreDto;
  @ApiProperty({ type: [RestoreItemDto] }) items!: RestoreItemDto[];
  @ApiProperty({ type: 'integer', description: 'Items recorded, across pages.' }) items_total!: number;
}

/** @param packageLink the signed link of the restore's package, when it has one */
export function toRestoreDto(row: RestoreEntity, packageLink?: RestorePackageLinkDto): RestoreDto {
  const totals = { create: 0, update: 0, delete: 0, skip: 0, failed: 0 };
  for (const summary of Object.values(row.summary))
    for (const key of Object.keys(totals) as Array<keyof typeof totals>) totals[key] += summary[key];
  return {
    id: row.id,
    connection_id: row.connectionId,
    connection: toConnectionRefDto(row.connection),
    backup_id: row.backupId,
    pre_restore_backup_id: row.preRestoreBackupId,
    mode: row.mode,
    resource_types: row.resourceTypes,
    resource_ids: row.resourceIds,
    prune: row.prune,
    undo: row.undo,
    activate_users: row.activateUsers,
    ...restoreOptionFields(row.options),
    ...trackedRunFields(row),
    summary: row.summary,
    totals,
    ...(packageLink ? { package: packageLink } : {}),
    ...(row.mapping !== null && { source_connection_id: row.sourceConnectionId, mapping: row.mapping }),
  };
}

export function toRestoreItemDto(row: RestoreItemEntity): RestoreItemDto {
  return {
    resourceType: row.resourceType,
    resourceId: row.resourceId,
    name: row.name,
    action: row.action,
    outcome: row.outcome,
    ...(row.error ? { error: row.error } : {}),
    ...(row.newId ? { newId: row.newId } : {}),
    notes: row.notes,
  };
}
