import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';
import { Permission, ROLES, type Role } from '@app/common/permission.js';
import { PlanSummaryDto } from '@app/plans/dto/plan-summary.dto.js';

/** The signed-in person. */
@ApiSchema({ name: 'MeUser' })
export class MeUserDto {
  @ApiProperty({ format: 'uuid', example: '0d6c2a8e-5a5b-4b4e-9f51-6f1c0a8d2f3e' }) id!: string;
  @ApiProperty({ example: 'jane.doe@acme.example' }) email!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'Jane Doe',
    description: "The identity provider's `name` claim.",
  })
  name!: string | null;
}

/** The integration client holding the access token (client_credentials). */
@ApiSchema({ name: 'MeClient' })
export class MeClientDto {
  @ApiProperty({ example: 'ic_3k9d8f7a6s5d4f3g' }) client_id!: string;
  @ApiProperty({ example: 'Nightly export job' }) name!: string;
  @ApiProperty({
    enum: ROLES,
    description: "The role it was given; it acts with at most its member's current role (the team's `role`).",
  })
  role!: Role;
  @ApiProperty({ format: 'uuid', description: 'The member it acts for, who created it.' })
  acts_for_user_id!: string;
}

/** A team the caller belongs to, with the role held there and what it allows. */
@ApiSchema({ name: 'MeTeam' })
export class MeTeamDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ example: 'Acme' }) name!: string;
  @ApiProperty({ enum: ROLES }) role!: Role;
  @ApiProperty({ enum: Permission, isArray: true, example: ['view backups', 'run backups'] })
  permissions!: Permission[];
  @ApiProperty({ description: 'The team the session or token acts in.' }) current!: boolean;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description:
      'When the team is to be deleted (grace period of a pending account deletion); null: none pending.',
  })
  deletion_scheduled_for!: string | null;
}

/** The team the caller acts in, with its plan. */
@ApiSchema({ name: 'MeCurrentTeam' })
export class MeCurrentTeamDto extends MeTeamDto {
  @ApiProperty({ type: PlanSummaryDto }) plan!: PlanSummaryDto;
}

/**
 * GET /api/me: who is calling, the teams they are in, the current one and its plan
 * (docs/api.md "The caller"). An integration client has no `user` and sees its one team.
 */
@ApiSchema({ name: 'Me' })
export class MeDto {
  @ApiProperty({
    enum: ['session', 'access_token', 'client'],
    description:
      "`session`: the web console's cookie; `access_token`: a token a client holds for a person; `client`: an integration client acting for itself.",
  })
  authenticated_by!: 'session' | 'access_token' | 'client';
  @ApiProperty({ type: MeUserDto, nullable: true, description: 'Null for an integration client.' })
  user!: MeUserDto | null;
  @ApiProperty({ type: MeClientDto, nullable: true, description: 'Set for an integration client only.' })
  client!: MeClientDto | null;
  @ApiProperty({ type: [MeTeamDto], description: "Every team of the person, by name; a client's one team." })
  teams!: MeTeamDto[];
  @ApiProperty({ type: MeCurrentTeamDto }) current_team!: MeCurrentTeamDto;
}

/** POST /api/me/team: the team to act in from now on. */
@ApiSchema({ name: 'SwitchTeamRequest' })
export class SwitchTeamDto {
  @ApiProperty({ format: 'uuid', description: 'A team the signed-in person belongs to.' })
  @IsUUID()
  teamId!: string;
}
