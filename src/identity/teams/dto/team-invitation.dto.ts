import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsEmail, IsIn, MaxLength } from 'class-validator';
import { ASSIGNABLE_ROLES, type AssignableRole } from '@app/identity/teams/membership-rules.js';

/** A pending invitation (GET /api/team/invitations); `expired` ones are kept until revoked or renewed. */
@ApiSchema({ name: 'TeamInvitation' })
export class TeamInvitationDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ description: 'Normalized: trimmed, lower case.', example: 'new.admin@acme.example' })
  email!: string;
  @ApiProperty({ enum: ASSIGNABLE_ROLES }) role!: AssignableRole;
  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true }) invited_by!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) expires_at!: string;
  @ApiProperty({ enum: ['pending', 'expired'] }) status!: 'pending' | 'expired';
}

/** GET /api/team/invitations. */
@ApiSchema({ name: 'TeamInvitationList' })
export class TeamInvitationListDto {
  @ApiProperty({ type: [TeamInvitationDto] }) invitations!: TeamInvitationDto[];
}

/** POST /api/team/invitations. */
@ApiSchema({ name: 'TeamInvitationResponse' })
export class TeamInvitationEnvelopeDto {
  @ApiProperty({ type: TeamInvitationDto }) invitation!: TeamInvitationDto;
}

/** Body of POST /api/team/invitations. */
export class CreateInvitationDto {
  /** RFC 5321 §4.5.3.1.3 caps a path at 256 octets, so no address is longer. */
  @ApiProperty({ format: 'email', example: 'new.admin@acme.example', maxLength: 254 })
  @MaxLength(254)
  @IsEmail()
  email!: string;

  @ApiProperty({ enum: ASSIGNABLE_ROLES })
  @IsIn(ASSIGNABLE_ROLES, { message: `role must be one of ${ASSIGNABLE_ROLES.join(', ')}` })
  role!: AssignableRole;
}
