import { Body, Controller, Delete, Get, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Actor } from '@app/common/actor.js';
import { UuidParam } from '@app/common/uuid-param.decorator.js';
import { CurrentActor, RequirePermission } from '@app/common/decorators.js';
import { ApiErrorResponses } from '@app/common/openapi/api-error-responses.decorator.js';
import { OkResponseDto } from '@app/common/openapi/ok-response.dto.js';
import { Permission } from '@app/common/permission.js';
import {
  CreateInvitationDto,
  TeamInvitationEnvelopeDto,
  TeamInvitationListDto,
} from './dto/team-invitation.dto.js';
import { TeamInvitationsService } from './team-invitations.service.js';

/** Invitations to the caller's team (beyond the spec; docs/security.md "Team management"). */
@ApiTags('team')
@Controller('api/team/invitations')
@RequirePermission(Permission.ManageTeam)
export class TeamInvitationsController {
  constructor(private readonly invitations: TeamInvitationsService) {}

  @Get()
  @ApiOperation({ summary: 'List pending invitations' })
  @ApiOkResponse({ type: TeamInvitationListDto })
  async list(@CurrentActor() actor: Actor): Promise<TeamInvitationListDto> {
    return { invitations: await this.invitations.list(actor) };
  }

  /** Creates or renews the address's invitation; accepted at its first sign-in within 7 days. */
  @Post()
  @ApiOperation({ summary: 'Invite someone to the team' })
  @ApiCreatedResponse({ type: TeamInvitationEnvelopeDto })
  @ApiErrorResponses({
    400: 'An invalid address or role, named.',
    402: 'The plan allows no more members (`limit: members`).',
    403: 'The role lacks "manage team", or only the owner invites an admin.',
    409: { codes: ['already_member'], description: 'This address already belongs to a member of the team.' },
  })
  async invite(
    @CurrentActor() actor: Actor,
    @Body() body: CreateInvitationDto,
  ): Promise<TeamInvitationEnvelopeDto> {
    return { invitation: await this.invitations.invite(actor, body) };
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Revoke an invitation' })
  @ApiOkResponse({ type: OkResponseDto })
  @ApiErrorResponses({
    400: '`id` is not a uuid.',
    403: 'The role lacks "manage team", or only the owner revokes an admin’s invitation.',
    404: 'No pending invitation of that id in the team.',
  })
  async revoke(@CurrentActor() actor: Actor, @UuidParam('id') id: string): Promise<{ ok: true }> {
    await this.invitations.revoke(actor, id);
    return { ok: true };
  }
}
