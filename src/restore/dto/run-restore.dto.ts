import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { ResourceTypesFilter } from '@app/common/resource-types-filter.decorator.js';
import { declareRestoreOptionFields } from './restore-option-fields.js';
import { AttributionFilterDto } from '@app/attribution/dto/attribution-filter.dto.js';
import { Type } from 'class-transformer';
import { CrossOrgMappingDto } from '@app/restore/cross-org/dto/cross-org-mapping.dto.js';
import { UndoFieldDto } from '@app/restore/undo/undo-field.dto.js';

/** Fields one undo puts back, at most. */
const MAX_UNDO_FIELDS = 100;

/** Most record ids one selective restore may name. */
export const MAX_RESTORE_IDS = 1000;

/**
 * Body of POST /api/restore (spec "Restore"): without `mode` it is the dry run and answers the
 * preview; `full` or `selective` starts a restore. Beyond the spec: `prune` and `activateUsers`
 * (docs/restore.md); `undo` with `actor`, `since` and `until` (docs/restore.md "Undo since a
 * clean backup").
 */
export class RunRestoreDto extends AttributionFilterDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  backupId!: string;

  @ApiPropertyOptional({
    enum: ['full', 'selective', 'undo'],
    description:
      'Execution happens only when given; without it the answer is the dry-run preview. Beyond the spec, `undo`: reverse the changes made since the backup (those of `actor`, in `since`..`until`, of `resourceTypes`, to `resourceIds`, when given): objects added are deleted, changed ones put back, deleted ones re-created; its dry run is GET /api/restore/undo.',
  })
  @IsOptional()
  @IsIn(['full', 'selective', 'undo'])
  mode?: 'full' | 'selective' | 'undo';

  @ResourceTypesFilter('Required with `selective`: resource types or categories to restore.')
  resourceTypes?: string[];

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', maxLength: 512 },
    maxItems: MAX_RESTORE_IDS,
    description: 'Narrows a selective restore to these record ids (and what hangs off them).',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_RESTORE_IDS)
  @IsString({ each: true })
  @MaxLength(512, { each: true })
  resourceIds?: string[];

  @ApiPropertyOptional({
    type: [UndoFieldDto],
    maxItems: MAX_UNDO_FIELDS,
    description:
      'Beyond the spec, with `undo` only: put back only these fields of these objects as the backup holds them, leaving the objects\' other fields as they are now (docs/restore.md "Revert one field").',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_UNDO_FIELDS)
  @ValidateNested({ each: true })
  @Type(() => UndoFieldDto)
  fields?: UndoFieldDto[];

  @ApiPropertyOptional({
    default: false,
    description:
      'Also delete live objects of the restored types that the backup lacks (lockout guard applies).',
  })
  @IsOptional()
  @IsBoolean()
  prune?: boolean;

  @ApiPropertyOptional({
    default: false,
    description: 'Send an activation e-mail to re-created users (they come back without credentials).',
  })
  @IsOptional()
  @IsBoolean()
  activateUsers?: boolean;

  @ApiPropertyOptional({
    format: 'uuid',
    description:
      'Beyond the spec: restore into this connection (another org of the same provider kind, same team) instead of the backup’s own; objects are matched by natural key (docs/restore.md "Into another org").',
  })
  @IsOptional()
  @IsUUID()
  targetConnectionId?: string;

  @ApiPropertyOptional({
    type: CrossOrgMappingDto,
    description: 'With `targetConnectionId`: what carries the backup into the other org.',
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => CrossOrgMappingDto)
  mapping?: CrossOrgMappingDto;
}

// The providers' own switches (Entra ID: `enforce`), flat beside the others.
declareRestoreOptionFields('request', RunRestoreDto);
