import { Body, Controller, Delete, Get, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse, ApiTags } from '@nestjs/swagger';
import type { Actor } from '@app/common/actor.js';
import { CurrentActor, RequirePermission } from '@app/common/decorators.js';
import { Permission } from '@app/common/permission.js';
import { CreateInvitationDto, type TeamInvitationDto } from './dto/team-invitation.dto.js';
import { TeamInvitationsService } from './team-invitations.service.js';
import { PlanLimitsService } from '@app/plans/plan-limits.service.js';

/** Invitations to the caller's team (beyond the spec, issue 6; docs/security.md "Team management"). */
@ApiTags('team')
@Controller('api/team/invitations')
@RequirePermission(Permission.ManageTeam)
export class TeamInvitationsController {
  constructor(
    private readonly invitations: TeamInvitationsService,
    private readonly plans: PlanLimitsService,
  ) {}

  @Get()
  async list(@CurrentActor() actor: Actor): Promise<{ invitations: TeamInvitationDto[] }> {
    return { invitations: await this.invitations.list(actor) };
  }

  /** Creates or renews the address's invitation; accepted at its first sign-in within 7 days. */
  @Post()
  @ApiConflictResponse({ description: '`already_member`.' })
  async invite(
    @CurrentActor() actor: Actor,
    @Body() body: CreateInvitationDto,
  ): Promise<{ invitation: TeamInvitationDto }> {
    await this.plans.assertCanInvite(actor);
    return { invitation: await this.invitations.invite(actor, body) };
  }

  @Delete(':id')
  @ApiNotFoundResponse({ description: 'No pending invitation of that id in the team.' })
  async revoke(@CurrentActor() actor: Actor, @Param('id', ParseUUIDPipe) id: string): Promise<{ ok: true }> {
    await this.invitations.revoke(actor, id);
    return { ok: true };
  }
}
