import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsIn, IsUUID } from 'class-validator';
import { ROLES, type Role } from '@app/common/permission.js';
import { ASSIGNABLE_ROLES, type AssignableRole } from '@app/identity/teams/membership-rules.js';

/** A member of the caller's team (GET /api/team/members). */
@ApiSchema({ name: 'TeamMember' })
export class TeamMemberDto {
  @ApiProperty({ format: 'uuid', example: '0d6c2a8e-5a5b-4b4e-9f51-6f1c0a8d2f3e' }) user_id!: string;
  @ApiProperty({ example: 'jane.doe@acme.example' }) email!: string;
  @ApiPropertyOptional({ type: String, nullable: true }) name!: string | null;
  @ApiProperty({ enum: ROLES }) role!: Role;
  @ApiProperty({ format: 'date-time', description: 'When the user joined the team.' }) joined_at!: string;
}

/** GET /api/team/members. */
@ApiSchema({ name: 'TeamMemberList' })
export class TeamMemberListDto {
  @ApiProperty({ type: [TeamMemberDto] }) members!: TeamMemberDto[];
}

/** PATCH /api/team/members/:userId. */
@ApiSchema({ name: 'TeamMemberResponse' })
export class TeamMemberEnvelopeDto {
  @ApiProperty({ type: TeamMemberDto }) member!: TeamMemberDto;
}

/** POST /api/team/ownership/transfer: the new owner, and the previous one (now admin). */
@ApiSchema({ name: 'OwnershipTransferred' })
export class OwnershipTransferredDto {
  @ApiProperty({ type: TeamMemberDto }) owner!: TeamMemberDto;
  @ApiProperty({ type: TeamMemberDto, nullable: true }) previous_owner!: TeamMemberDto | null;
}

/** Body of PATCH /api/team/members/:userId. */
export class ChangeRoleDto {
  @ApiProperty({ enum: ASSIGNABLE_ROLES, description: 'super_admin changes only by ownership transfer.' })
  @IsIn(ASSIGNABLE_ROLES, { message: `role must be one of ${ASSIGNABLE_ROLES.join(', ')}` })
  role!: AssignableRole;
}

/** Body of POST /api/team/ownership/transfer. */
export class TransferOwnershipDto {
  @ApiProperty({ format: 'uuid', description: 'A member of the team, who becomes its super_admin.' })
  @IsUUID()
  user_id!: string;
}
