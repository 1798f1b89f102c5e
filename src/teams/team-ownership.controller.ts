import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse, ApiTags } from '@nestjs/swagger';
import type { Actor } from '@app/common/actor.js';
import { CurrentActor, RequirePermission } from '@app/common/decorators.js';
import { Permission } from '@app/common/permission.js';
import { type TeamMemberDto, TransferOwnershipDto } from './dto/team-member.dto.js';
import { TeamMembersService } from './team-members.service.js';

/** Ownership of the caller's team (beyond the spec, issue 6; docs/security.md "Team management"). */
@ApiTags('team')
@Controller('api/team/ownership')
@RequirePermission(Permission.ManageTeam)
export class TeamOwnershipController {
  constructor(private readonly members: TeamMembersService) {}

  /** super_admin only: the member becomes super_admin and the previous owner admin, atomically. */
  @Post('transfer')
  @HttpCode(200)
  @ApiNotFoundResponse({ description: 'Not a member of the team.' })
  @ApiConflictResponse({ description: '`already_owner`.' })
  transfer(
    @CurrentActor() actor: Actor,
    @Body() body: TransferOwnershipDto,
  ): Promise<{ owner: TeamMemberDto; previous_owner: TeamMemberDto | null }> {
    return this.members.transferOwnership(actor, body.user_id);
  }
}
