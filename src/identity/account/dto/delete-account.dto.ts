import { ApiProperty } from '@nestjs/swagger';
import { Equals } from 'class-validator';

/** POST /api/account/delete (spec "Account data rights"): the literal text DELETE, nothing else. */
export class DeleteAccountDto {
  @ApiProperty({ enum: ['DELETE'], description: 'The literal text DELETE.' })
  @Equals('DELETE', { message: 'confirm must be the literal text DELETE' })
  confirm!: string;
}
