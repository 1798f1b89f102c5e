import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Actor } from '@app/common/actor.js';
import { CurrentActor, RequirePermission } from '@app/common/decorators.js';
import { Permission } from '@app/common/permission.js';
import { AuditService } from './audit.service.js';
import type { AuditEventDto } from './dto/audit-event.dto.js';
import { ListAuditEventsQuery } from './dto/list-audit-events.query.js';

/** The team's audit trail (beyond the spec, issue 25; docs/notifications.md). Read-only: no route changes a row. */
@ApiTags('audit')
@Controller('api/audit-events')
export class AuditEventsController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @RequirePermission(Permission.Export)
  list(
    @CurrentActor() actor: Actor,
    @Query() query: ListAuditEventsQuery,
  ): Promise<{ events: AuditEventDto[]; nextAfter: string | null }> {
    return this.audit.list(actor, query);
  }
}
