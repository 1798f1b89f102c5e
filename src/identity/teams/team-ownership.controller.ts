import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Actor } from '@app/common/actor.js';
import { CurrentActor, RequirePermission } from '@app/common/decorators.js';
import { ApiErrorResponses } from '@app/common/openapi/api-error-responses.decorator.js';
import { Permission } from '@app/common/permission.js';
import { OwnershipTransferredDto, TransferOwnershipDto } from './dto/team-member.dto.js';
import { TeamMembersService } from './team-members.service.js';

/** Ownership of the caller's team (beyond the spec; docs/security.md "Team management"). */
@ApiTags('team')
@Controller('api/team/ownership')
@RequirePermission(Permission.ManageTeam)
export class TeamOwnershipController {
  constructor(private readonly members: TeamMembersService) {}

  /** super_admin only: the member becomes super_admin and the previous owner admin, atomically. */
  @Post('transfer')
  @ApiOperation({ summary: 'Transfer team ownership' })
  @HttpCode(200)
  @ApiOkResponse({ type: OwnershipTransferredDto })
  @ApiErrorResponses({
    400: '`user_id` missing or not a uuid.',
    403: 'The role lacks "manage team", or the caller is not the owner.',
    404: 'Not a member of the team.',
    409: { codes: ['already_owner'], description: 'This member already owns the team.' },
  })
  transfer(
    @CurrentActor() actor: Actor,
    @Body() body: TransferOwnershipDto,
  ): Promise<OwnershipTransferredDto> {
    return this.members.transferOwnership(actor, body.user_id);
  }
}
