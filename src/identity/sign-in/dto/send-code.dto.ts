import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, MaxLength } from 'class-validator';

/** Body of POST /api/auth/send-code (spec "Authentication" item 8; shape: docs/auth.md). */
export class SendCodeDto {
  @ApiProperty({
    format: 'email',
    maxLength: 254,
    example: 'it-admin@acme.example',
    description: 'Where to send a six-digit sign-in code.',
  })
  @MaxLength(254)
  @IsEmail()
  email!: string;
}
