import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import type { UndoAction, UndoChange } from '@libs/restore/undo.js';
import { ChangeAttributedDto } from '@app/attribution/dto/change-attributed.dto.js';

const ACTIONS: UndoAction[] = ['delete', 'put_back', 'recreate'];

/** One change since the clean backup that an undo reverses, with who made it. */
@ApiSchema({ name: 'UndoChange' })
export class UndoChangeDto extends ChangeAttributedDto implements UndoChange {
  @ApiProperty({ example: 'admin_role_assignment' }) resourceType!: string;
  @ApiProperty({
    example: '00u1a2b3c4d5e6f7g8h9:ra1b2c3d4e5f6g7h8i9',
    description: 'The record id: in the live org for `delete` and `put_back`, in the backup for `recreate`.',
  })
  id!: string;
  @ApiProperty({ type: String, nullable: true }) name!: string | null;
  @ApiProperty({
    enum: ACTIONS,
    description:
      '`delete`: added since the backup, the undo deletes it; `put_back`: changed since, put back as the backup holds it; `recreate`: deleted since, re-created.',
  })
  action!: UndoAction;
}

@ApiSchema({ name: 'UndoTotals' })
class UndoTotalsDto implements Record<UndoAction, number> {
  @ApiProperty({ type: 'integer' }) delete!: number;
  @ApiProperty({ type: 'integer' }) put_back!: number;
  @ApiProperty({ type: 'integer' }) recreate!: number;
}

@ApiSchema({ name: 'UndoAttributionAvailability' })
class UndoAttributionDto {
  @ApiProperty({ description: "Whether the provider's audit log says who changed what." })
  available!: boolean;
  @ApiPropertyOptional({ description: 'Why not, when it does not.' }) reason?: string;
}

/** GET /api/restore/undo: the dry run of an undo (docs/restore.md "Undo since a clean backup"). */
@ApiSchema({ name: 'UndoPreview' })
export class UndoPreviewDto {
  @ApiProperty({ format: 'uuid', description: 'The clean backup.' }) backupId!: string;
  @ApiProperty() sourceOrgUrl!: string;
  @ApiProperty({ format: 'date-time', description: 'When the live org was read.' }) collectedAt!: string;
  @ApiProperty({ type: UndoAttributionDto }) attribution!: UndoAttributionDto;
  @ApiProperty({ type: UndoTotalsDto }) totals!: UndoTotalsDto;
  @ApiProperty({
    type: 'integer',
    description: 'Changes the undo reverses (all are counted, at most 1,000 listed).',
  })
  total!: number;
  @ApiProperty({ type: [UndoChangeDto], description: 'In restore order.' }) changes!: UndoChangeDto[];
}
