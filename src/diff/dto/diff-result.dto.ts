import { ApiProperty, ApiPropertyOptional, ApiSchema, getSchemaPath } from '@nestjs/swagger';
import type { Operation } from 'fast-json-patch';
import { SEVERITIES, type ChangeAction, type ChangePart, type Severity } from '@libs/diff/change-facts.js';
import { JsonPatchOperationDto } from '@app/common/openapi/json-patch-operation.dto.js';
import type { DiffResult } from '@app/diff/diff.service.js';
import type { DiffSide, DiffSummary } from '@app/diff/diff-summary.js';
import type { AttributedChange } from '@app/diff/diff-attribution.js';
import { ChangeAttributedDto } from '@app/attribution/dto/change-attributed.dto.js';
import type { RecreatedPair } from '@app/diff/recreation.js';

const ACTIONS = ['added', 'modified', 'removed'];

/** Changes counted by action. */
@ApiSchema({ name: 'DiffActionCounts' })
class ActionCountsDto implements Record<ChangeAction, number> {
  @ApiProperty({ type: 'integer' }) added!: number;
  @ApiProperty({ type: 'integer' }) modified!: number;
  @ApiProperty({ type: 'integer' }) removed!: number;
}

@ApiSchema({ name: 'DiffResource' })
class DiffResourceDto {
  @ApiProperty({ example: '00u1a2b3c4d5e6f7g8h9' }) id!: string;
  @ApiProperty({ type: String, nullable: true, example: 'jane.doe@acme.example' }) name!: string | null;
  @ApiPropertyOptional({
    type: [JsonPatchOperationDto],
    description: '`modified` only: each replace or remove is preceded by a `test` of the old value.',
  })
  changes?: Operation[];
}

/** A named part of a changed resource (a Workflows flow's card). */
@ApiSchema({ name: 'DiffChangePart' })
class DiffChangePartDto implements ChangePart {
  @ApiProperty({ example: 'card' }) kind!: string;
  @ApiProperty({
    example: 'root:channels:http:okta:1.0.685:deactivateUser#1',
    description: 'Where the part is in the record.',
  })
  key!: string;
  @ApiProperty({ type: String, nullable: true, example: 'Deactivate User' }) name!: string | null;
  @ApiProperty({ enum: ACTIONS }) action!: ChangeAction;
  @ApiProperty({
    type: [JsonPatchOperationDto],
    description: 'The operations of `resource.changes` inside this part.',
  })
  changes!: Operation[];
}

/** A `modified` change of an object a restore re-created under a new id. */
@ApiSchema({ name: 'DiffRecreated' })
class DiffRecreatedDto {
  @ApiProperty({
    example: '00g1oldgroupid0000000',
    description: 'The id of the object in the `from` backup; `resource.id` is its id in the `to` backup.',
  })
  previousId!: string;
}

/** An object re-created under a new id with nothing but server-owned fields changed: not a change. */
@ApiSchema({ name: 'DiffRecreatedPair' })
class DiffRecreatedPairDto implements RecreatedPair {
  @ApiProperty({ example: 'group' }) resourceType!: string;
  @ApiProperty({ description: 'Its id in the `from` backup.' }) previousId!: string;
  @ApiProperty({ description: 'Its id in the `to` backup.' }) id!: string;
}

/** One change between two backups (spec "Diff change"). */
@ApiSchema({ name: 'DiffChange' })
export class DiffChangeDto extends ChangeAttributedDto implements AttributedChange {
  @ApiProperty({ example: 'user' }) resourceType!: string;
  @ApiProperty({ enum: ACTIONS }) action!: ChangeAction;
  @ApiProperty({ type: DiffResourceDto }) resource!: DiffResourceDto;
  @ApiProperty({ enum: SEVERITIES }) severity!: Severity;
  @ApiProperty({ description: 'The severity rule that decided it (docs/severity.md).' }) rule!: string;
  @ApiPropertyOptional({
    type: [DiffChangePartDto],
    description:
      '`modified` only, for providers whose resources have named parts: the change part by part (an Okta Workflows flow, card by card).',
  })
  parts?: DiffChangePartDto[];
  @ApiPropertyOptional({
    type: DiffRecreatedDto,
    description:
      '`modified` only: a restore between the two backups re-created the object under a new id; the changes compare it with the object it replaces, server-owned fields (ids, creation and update times) left out.',
  })
  recreated?: DiffRecreatedDto;
}

@ApiSchema({ name: 'DiffSide' })
class DiffSideDto implements DiffSide {
  @ApiProperty({ format: 'uuid' }) backupId!: string;
  @ApiProperty({ format: 'uuid' }) connectionId!: string;
  @ApiProperty({ format: 'date-time' }) startedAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) completedAt!: string | null;
}

/** `summary` of a diff (docs/diff.md). */
@ApiSchema({ name: 'DiffSummary' })
export class DiffSummaryDto implements DiffSummary {
  @ApiProperty({ type: DiffSideDto }) from!: DiffSideDto;
  @ApiProperty({ type: DiffSideDto }) to!: DiffSideDto;
  @ApiProperty({ description: 'false when comparing two connections.' }) sameConnection!: boolean;
  @ApiProperty({ type: 'integer' }) total!: number;
  @ApiProperty({ type: ActionCountsDto }) byAction!: ActionCountsDto;
  @ApiProperty({
    type: 'object',
    properties: Object.fromEntries(SEVERITIES.map((severity) => [severity, { type: 'integer' }])),
    required: [...SEVERITIES],
  })
  bySeverity!: Record<Severity, number>;
  @ApiProperty({ type: 'object', additionalProperties: { $ref: getSchemaPath(ActionCountsDto) } })
  byType!: Record<string, ActionCountsDto>;
  @ApiProperty({ type: [String], description: 'Types compared.' }) resourceTypes!: string[];
  @ApiProperty({ type: [String], description: 'Types asked for that one of the backups did not capture.' })
  notCompared!: string[];
  @ApiPropertyOptional({
    type: [DiffRecreatedPairDto],
    description:
      'Objects a restore between the two backups (of one connection) re-created under a new id that differ from the ones they replace only in server-owned fields: not changes.',
  })
  recreated?: DiffRecreatedPairDto[];
}

/** POST and GET /api/diff (spec "Diff"). */
@ApiSchema({ name: 'DiffResult' })
export class DiffResultDto implements DiffResult {
  @ApiProperty({ type: [DiffChangeDto] }) changes!: DiffChangeDto[];
  @ApiProperty({ type: DiffSummaryDto }) summary!: DiffSummaryDto;
}
