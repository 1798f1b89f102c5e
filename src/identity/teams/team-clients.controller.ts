import { Body, Controller, Delete, Get, Header, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Actor } from '@app/common/actor.js';
import { CurrentActor, RequirePermission } from '@app/common/decorators.js';
import { ApiErrorResponses } from '@app/common/openapi/api-error-responses.decorator.js';
import { OkResponseDto } from '@app/common/openapi/ok-response.dto.js';
import { Permission } from '@app/common/permission.js';
import {
  CreatedTeamClientEnvelopeDto,
  CreateTeamClientDto,
  TeamClientListDto,
} from './dto/team-client.dto.js';
import { TeamClientsService } from './team-clients.service.js';

/** Integration clients of the caller's team (beyond the spec; docs/security.md "Team management"). */
@ApiTags('team')
@Controller('api/team/clients')
@RequirePermission(Permission.ManageTeam)
export class TeamClientsController {
  constructor(private readonly clients: TeamClientsService) {}

  @Get()
  @ApiOperation({ summary: 'List integration clients' })
  @ApiOkResponse({ type: TeamClientListDto })
  async list(@CurrentActor() actor: Actor): Promise<TeamClientListDto> {
    return { clients: await this.clients.list(actor) };
  }

  /**
   * Creates a client acting for the caller, as `cli client:create` does; the answer holds its
   * secret, shown this once (`Cache-Control: no-store`).
   */
  @Post()
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ summary: 'Create an integration client' })
  @ApiCreatedResponse({ type: CreatedTeamClientEnvelopeDto })
  @ApiErrorResponses({
    400: 'An unknown role, or a name that is empty or longer than 200 characters.',
    403: 'The role lacks "manage team", only the owner gives admin or super_admin, or the caller is an integration client.',
  })
  async create(
    @CurrentActor() actor: Actor,
    @Body() body: CreateTeamClientDto,
  ): Promise<CreatedTeamClientEnvelopeDto> {
    return { client: await this.clients.create(actor, body) };
  }

  /** Revokes the client: new tokens are refused and its unexpired ones stop working at once. */
  @Delete(':clientId')
  @ApiOperation({ summary: 'Revoke an integration client' })
  @ApiOkResponse({ type: OkResponseDto })
  @ApiErrorResponses({
    403: 'The role lacks "manage team", or the client is an admin’s and the caller not the owner.',
    404: 'No active client of that id in the team.',
  })
  async revoke(@CurrentActor() actor: Actor, @Param('clientId') clientId: string): Promise<{ ok: true }> {
    await this.clients.revoke(actor, clientId);
    return { ok: true };
  }
}
