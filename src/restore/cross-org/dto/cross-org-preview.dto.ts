import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import type {
  CannotMove,
  CrossOrgObject,
  UnmappedReference,
} from '@libs/restore/cross-org/cross-org-preview.js';
import type { CrossOrgPreview } from '@app/restore/cross-org/cross-org-preview.js';
import { CrossOrgMappingDto } from './cross-org-mapping.dto.js';

/** One object of a restore into another org and what the restore would do to it. */
@ApiSchema({ name: 'CrossOrgObject' })
export class CrossOrgObjectDto implements CrossOrgObject {
  @ApiProperty({ example: 'group' }) resourceType!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Record id in the backup; null for `target_only`.',
  })
  sourceId!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Record id in the target when matched (natural key or explicit pair); null for `create`.',
  })
  targetId!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'After the mapping.' }) name!: string | null;
  @ApiProperty({
    enum: ['create', 'update', 'same', 'target_only', 'left_alone'],
    description:
      '`target_only`: in the target, not in the backup (removed only with `prune`); `left_alone`: the provider’s own object or one the lockout guard protects (`why`).',
  })
  action!: CrossOrgObject['action'];
  @ApiPropertyOptional() why?: string;
}

/** A reference to an object the target will not have (neither matched nor created). */
@ApiSchema({ name: 'UnmappedReference' })
export class UnmappedReferenceDto implements UnmappedReference {
  @ApiProperty() resourceType!: string;
  @ApiProperty({ description: 'The record that holds the reference (backup record id).' }) sourceId!: string;
  @ApiProperty({ type: String, nullable: true }) name!: string | null;
  @ApiProperty({ description: 'The source org’s object id it names: pair it, or restore that object too.' })
  reference!: string;
}

/** What cannot move into the target, named. */
@ApiSchema({ name: 'CannotMove' })
export class CannotMoveDto implements CannotMove {
  @ApiProperty() resourceType!: string;
  @ApiProperty({
    enum: ['left_alone', 'not_writable', 'unavailable'],
    description:
      '`left_alone`: the provider’s own objects, the lockout guard; `not_writable`: the provider’s API cannot write the type; `unavailable`: the target lacks the feature or licence the type needs (`why` names it).',
  })
  kind!: CannotMove['kind'];
  @ApiProperty() why!: string;
  @ApiProperty({ type: [String], description: 'Names (or ids), at most 50.' }) objects!: string[];
  @ApiProperty({ type: 'integer' }) count!: number;
}

/** Beyond the spec (docs/restore.md "Into another org"): the preview of a restore into another connection's org. */
@ApiSchema({ name: 'CrossOrgPreview' })
export class CrossOrgPreviewDto implements CrossOrgPreview {
  @ApiProperty({ format: 'uuid' }) targetConnectionId!: string;
  @ApiProperty({ format: 'uri' }) targetOrgUrl!: string;
  @ApiProperty({ type: CrossOrgMappingDto }) mapping!: CrossOrgMappingDto;
  @ApiProperty({ type: [CrossOrgObjectDto], description: 'At most 5,000 listed; `objectsTotal` counts all.' })
  objects!: CrossOrgObjectDto[];
  @ApiProperty({ type: 'integer' }) objectsTotal!: number;
  @ApiProperty({ type: [UnmappedReferenceDto] }) unmapped!: UnmappedReferenceDto[];
  @ApiProperty({ type: [CannotMoveDto] }) cannotMove!: CannotMoveDto[];
}
