import { Body, Controller, Delete, Get, Patch, Post, Res } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { answerHeld, type HeldForApproval } from '@app/approvals/approval-gate.js';
import { ApprovalHeldDto, HELD_DESCRIPTION } from '@app/approvals/dto/approval.dto.js';
import type { Actor } from '@app/common/actor.js';
import { UuidParam } from '@app/common/uuid-param.decorator.js';
import { CurrentActor, RequirePermission } from '@app/common/decorators.js';
import { ApiErrorResponses } from '@app/common/openapi/api-error-responses.decorator.js';
import { OkResponseDto } from '@app/common/openapi/ok-response.dto.js';
import { Permission } from '@app/common/permission.js';
import { ConnectionsService } from './connections.service.js';
import { ConnectionEnvelopeDto, ConnectionListDto } from './dto/connection.dto.js';
import { CreateConnectionDto } from './dto/create-connection.dto.js';
import { UpdateConnectionDto } from './dto/update-connection.dto.js';

/** Spec "Connections": every route needs `manage connections`. */
@ApiTags('connections')
@Controller('api/connections')
@RequirePermission(Permission.ManageConnections)
export class ConnectionsController {
  constructor(private readonly connections: ConnectionsService) {}

  @Get()
  @ApiOperation({ summary: 'List connections' })
  @ApiOkResponse({ type: ConnectionListDto })
  async list(@CurrentActor() actor: Actor): Promise<ConnectionListDto> {
    return { connections: await this.connections.list(actor) };
  }

  @Post('create')
  @ApiOperation({ summary: 'Create a connection' })
  @ApiCreatedResponse({ type: ConnectionEnvelopeDto, description: 'Created once the credentials worked.' })
  @ApiErrorResponses({
    400: 'A missing or invalid field, or credentials the provider refused (`details` holds its answer).',
    402: 'The plan allows no more connections, or not this provider kind.',
  })
  async create(
    @CurrentActor() actor: Actor,
    @Body() body: CreateConnectionDto,
  ): Promise<ConnectionEnvelopeDto> {
    return { connection: await this.connections.create(actor, body) };
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Update a connection' })
  @ApiOkResponse({ type: ConnectionEnvelopeDto })
  @ApiErrorResponses({
    400: 'A missing or invalid field, or credentials the provider refused.',
    404: 'A connection the team cannot see.',
  })
  async update(
    @CurrentActor() actor: Actor,
    @UuidParam('id') id: string,
    @Body() body: UpdateConnectionDto,
  ): Promise<ConnectionEnvelopeDto> {
    return { connection: await this.connections.update(actor, id, body) };
  }

  /** Existing backups remain available until retention expires. */
  @Delete(':id')
  @ApiOperation({ summary: 'Delete a connection' })
  @ApiOkResponse({ type: OkResponseDto })
  @ApiAcceptedResponse({ type: ApprovalHeldDto, description: HELD_DESCRIPTION })
  @ApiErrorResponses({ 400: '`id` is not a uuid.', 404: 'A connection the team cannot see.' })
  async remove(
    @CurrentActor() actor: Actor,
    @UuidParam('id') id: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<{ ok: true } | HeldForApproval> {
    return answerHeld(response, (await this.connections.remove(actor, id)) ?? { ok: true as const });
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a connection' })
  @ApiOkResponse({ type: ConnectionEnvelopeDto, description: 'Credentials redacted.' })
  @ApiErrorResponses({ 400: '`id` is not a uuid.', 404: 'A connection the team cannot see.' })
  async get(@CurrentActor() actor: Actor, @UuidParam('id') id: string): Promise<ConnectionEnvelopeDto> {
    return { connection: await this.connections.get(actor, id) };
  }
}
