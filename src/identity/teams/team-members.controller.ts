import { Body, Controller, Delete, Get, Patch } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Actor } from '@app/common/actor.js';
import { UuidParam } from '@app/common/uuid-param.decorator.js';
import { CurrentActor, RequirePermission } from '@app/common/decorators.js';
import { ApiErrorResponses } from '@app/common/openapi/api-error-responses.decorator.js';
import { OkResponseDto } from '@app/common/openapi/ok-response.dto.js';
import { Permission } from '@app/common/permission.js';
import { ChangeRoleDto, TeamMemberEnvelopeDto, TeamMemberListDto } from './dto/team-member.dto.js';
import { TeamMembersService } from './team-members.service.js';

/** Members of the caller's team (beyond the spec; docs/security.md "Team management"). */
@ApiTags('team')
@Controller('api/team/members')
@RequirePermission(Permission.ManageTeam)
export class TeamMembersController {
  constructor(private readonly members: TeamMembersService) {}

  @Get()
  @ApiOperation({ summary: 'List the team members' })
  @ApiOkResponse({ type: TeamMemberListDto })
  async list(@CurrentActor() actor: Actor): Promise<TeamMemberListDto> {
    return { members: await this.members.list(actor) };
  }

  /** Only super_admin grants or takes away admin; nobody changes their own role; the owner changes by transfer. */
  @Patch(':userId')
  @ApiOperation({ summary: "Change a member's role" })
  @ApiOkResponse({ type: TeamMemberEnvelopeDto })
  @ApiErrorResponses({
    400: 'An invalid id or role, named.',
    403: 'The role lacks "manage team", or only the owner may grant or take away admin, or it is your own.',
    404: 'Not a member of the team.',
    409: {
      codes: ['owner_protected', 'member_changed'],
      description: 'The owner changes by transfer only, or the member changed meanwhile.',
    },
  })
  async changeRole(
    @CurrentActor() actor: Actor,
    @UuidParam('userId') userId: string,
    @Body() body: ChangeRoleDto,
  ): Promise<TeamMemberEnvelopeDto> {
    return { member: await this.members.changeRole(actor, userId, body.role) };
  }

  /** Revokes the integration clients the member created in this team. */
  @Delete(':userId')
  @ApiOperation({ summary: 'Remove a member from the team' })
  @ApiOkResponse({ type: OkResponseDto })
  @ApiErrorResponses({
    400: '`userId` is not a uuid.',
    403: 'The role lacks "manage team", or only the owner may remove an admin, or it is yourself.',
    404: 'Not a member of the team.',
    409: {
      codes: ['owner_protected', 'member_changed'],
      description: 'The owner cannot be removed, or the member changed meanwhile.',
    },
  })
  async remove(@CurrentActor() actor: Actor, @UuidParam('userId') userId: string): Promise<{ ok: true }> {
    await this.members.remove(actor, userId);
    return { ok: true };
  }
}
