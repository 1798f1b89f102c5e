import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, Matches, MaxLength } from 'class-validator';

/** Body of POST /api/auth/verify-code (spec "Authentication" item 8; shape: docs/auth.md). */
export class VerifyCodeDto {
  @ApiProperty({ format: 'email', maxLength: 254, example: 'it-admin@acme.example' })
  @MaxLength(254)
  @IsEmail()
  email!: string;

  @ApiProperty({ pattern: '^\\d{6}$', example: '042917', description: 'The six digits received by e-mail.' })
  @Matches(/^\d{6}$/, { message: 'code must be six digits' })
  code!: string;
}
