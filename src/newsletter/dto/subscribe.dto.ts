import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, MaxLength } from 'class-validator';

/** Body of POST /api/newsletter/subscribe (spec "Newsletter"). */
export class SubscribeDto {
  @ApiProperty({ format: 'email', maxLength: 254, example: 'it-admin@acme.example' })
  @MaxLength(254)
  @IsEmail({}, { message: 'email must be an e-mail address' })
  email!: string;
}
