import { Body, Controller, Delete, Get, Param, ParseUUIDPipe, Patch, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Actor } from '@app/common/actor.js';
import { CurrentActor, RequirePermission } from '@app/common/decorators.js';
import { Permission } from '@app/common/permission.js';
import { ConnectionsService } from './connections.service.js';
import type { ConnectionDto } from './dto/connection.dto.js';
import { CreateConnectionDto } from './dto/create-connection.dto.js';
import { UpdateConnectionDto } from './dto/update-connection.dto.js';
import { PlanLimitsService } from '@app/plans/plan-limits.service.js';
import { PRIMARY_PROVIDER_KIND } from '@libs/providers/provider-kind.js';

/** Spec "Connections": every route needs `manage connections`. */
@ApiTags('connections')
@Controller('api/connections')
@RequirePermission(Permission.ManageConnections)
export class ConnectionsController {
  constructor(
    private readonly connections: ConnectionsService,
    private readonly plans: PlanLimitsService,
  ) {}

  @Get()
  async list(@CurrentActor() actor: Actor): Promise<{ connections: ConnectionDto[] }> {
    return { connections: await this.connections.list(actor) };
  }

  @Post('create')
  async create(
    @CurrentActor() actor: Actor,
    @Body() body: CreateConnectionDto,
  ): Promise<{ connection: ConnectionDto }> {
    await this.plans.assertCanAddConnection(actor, body.provider ?? PRIMARY_PROVIDER_KIND);
    return { connection: await this.connections.create(actor, body) };
  }

  @Patch(':id')
  async update(
    @CurrentActor() actor: Actor,
    @Param('id', ParseUUIDPipe) id: string,
    @Body() body: UpdateConnectionDto,
  ): Promise<{ connection: ConnectionDto }> {
    return { connection: await this.connections.update(actor, id, body) };
  }

  /** Existing backups remain available until retention expires. */
  @Delete(':id')
  async remove(@CurrentActor() actor: Actor, @Param('id', ParseUUIDPipe) id: string): Promise<{ ok: true }> {
    await this.connections.remove(actor, id);
    return { ok: true };
  }

  @Get(':id')
  async get(
    @CurrentActor() actor: Actor,
    @Param('id', ParseUUIDPipe) id: string,
  ): Promise<{ connection: ConnectionDto }> {
    return { connection: await this.connections.get(actor, id) };
  }
}
