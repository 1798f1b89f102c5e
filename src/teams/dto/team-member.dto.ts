import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsUUID } from 'class-validator';
import { ROLES, type Role } from '@app/common/permission.js';
import { ASSIGNABLE_ROLES, type AssignableRole } from '@app/teams/membership-rules.js';

/** A member of the caller's team (GET /api/team/members). */
export class TeamMemberDto {
  @ApiProperty({ format: 'uuid' }) user_id!: string;
  @ApiProperty() email!: string;
  @ApiPropertyOptional({ type: String, nullable: true }) name!: string | null;
  @ApiProperty({ enum: ROLES }) role!: Role;
  @ApiProperty({ description: 'ISO 8601; when the user joined the team.' }) joined_at!: string;
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
