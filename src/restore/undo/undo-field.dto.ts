import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches, MaxLength } from 'class-validator';
import type { UndoField } from '@libs/restore/field-revert.js';

/** One field an undo puts back (docs/restore.md "Revert one field"). */
export class UndoFieldDto implements UndoField {
  @ApiProperty({
    maxLength: 512,
    example: '00p1a2b3c4d5e6f7g8h9',
    description: 'The record id, as the diff names it.',
  })
  @IsString()
  @MaxLength(512)
  resourceId!: string;

  @ApiProperty({
    maxLength: 1024,
    example: '/settings/password/complexity/minLength',
    description:
      "The field, as a JSON Pointer (RFC 6901) into the record's data, as the diff's changes name it.",
  })
  @IsString()
  @MaxLength(1024)
  @Matches(/^\//, { message: 'path must be a JSON Pointer starting with /' })
  path!: string;
}
