import { Controller, Delete, Get, Param } from '@nestjs/common';
import { ApiNotFoundResponse, ApiTags } from '@nestjs/swagger';
import type { Actor } from '@app/common/actor.js';
import { CurrentActor, RequirePermission } from '@app/common/decorators.js';
import { Permission } from '@app/common/permission.js';
import type { TeamClientDto } from './dto/team-client.dto.js';
import { TeamClientsService } from './team-clients.service.js';

/** Integration clients of the caller's team (beyond the spec, issue 6; docs/security.md "Team management"). */
@ApiTags('team')
@Controller('api/team/clients')
@RequirePermission(Permission.ManageTeam)
export class TeamClientsController {
  constructor(private readonly clients: TeamClientsService) {}

  @Get()
  async list(@CurrentActor() actor: Actor): Promise<{ clients: TeamClientDto[] }> {
    return { clients: await this.clients.list(actor) };
  }

  /** Revokes the client: new tokens are refused and its unexpired ones stop working at once. */
  @Delete(':clientId')
  @ApiNotFoundResponse({ description: 'No active client of that id in the team.' })
  async revoke(@CurrentActor() actor: Actor, @Param('clientId') clientId: string): Promise<{ ok: true }> {
    await this.clients.revoke(actor, clientId);
    return { ok: true };
  }
}
