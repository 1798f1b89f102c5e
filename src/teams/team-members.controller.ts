import { Body, Controller, Delete, Get, Param, ParseUUIDPipe, Patch } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse, ApiTags } from '@nestjs/swagger';
import type { Actor } from '@app/common/actor.js';
import { CurrentActor, RequirePermission } from '@app/common/decorators.js';
import { Permission } from '@app/common/permission.js';
import { ChangeRoleDto, type TeamMemberDto } from './dto/team-member.dto.js';
import { TeamMembersService } from './team-members.service.js';

/** Members of the caller's team (beyond the spec, issue 6; docs/security.md "Team management"). */
@ApiTags('team')
@Controller('api/team/members')
@RequirePermission(Permission.ManageTeam)
export class TeamMembersController {
  constructor(private readonly members: TeamMembersService) {}

  @Get()
  async list(@CurrentActor() actor: Actor): Promise<{ members: TeamMemberDto[] }> {
    return { members: await this.members.list(actor) };
  }

  /** Only super_admin grants or takes away admin; nobody changes their own role; the owner changes by transfer. */
  @Patch(':userId')
  @ApiNotFoundResponse({ description: 'Not a member of the team.' })
  @ApiConflictResponse({ description: '`owner_protected`: use the ownership transfer.' })
  async changeRole(
    @CurrentActor() actor: Actor,
    @Param('userId', ParseUUIDPipe) userId: string,
    @Body() body: ChangeRoleDto,
  ): Promise<{ member: TeamMemberDto }> {
    return { member: await this.members.changeRole(actor, userId, body.role) };
  }

  /** Revokes the integration clients the member created in this team. */
  @Delete(':userId')
  @ApiNotFoundResponse({ description: 'Not a member of the team.' })
  @ApiConflictResponse({ description: '`owner_protected`: the owner cannot be removed.' })
  async remove(
    @CurrentActor() actor: Actor,
    @Param('userId', ParseUUIDPipe) userId: string,
  ): Promise<{ ok: true }> {
    await this.members.remove(actor, userId);
    return { ok: true };
  }
}
