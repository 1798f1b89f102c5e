import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Actor } from '@app/common/actor.js';
import { CurrentActor, RequirePermission } from '@app/common/decorators.js';
import { ApiErrorResponses } from '@app/common/openapi/api-error-responses.decorator.js';
import { Permission } from '@app/common/permission.js';
import { AuditService } from './audit.service.js';
import { AuditEventPageDto } from './dto/audit-event.dto.js';
import { ListAuditEventsQuery } from './dto/list-audit-events.query.js';

/** The team's audit trail (beyond the spec; docs/notifications.md). Read-only: no route changes a row. */
@ApiTags('audit')
@Controller('api/audit-events')
export class AuditEventsController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @ApiOperation({ summary: "List the team's audit events" })
  @RequirePermission(Permission.Export)
  @ApiOkResponse({ type: AuditEventPageDto })
  @ApiErrorResponses({ 400: 'An invalid filter, cursor or `limit`, named.' })
  list(@CurrentActor() actor: Actor, @Query() query: ListAuditEventsQuery): Promise<AuditEventPageDto> {
    return this.audit.list(actor, query);
  }
}
