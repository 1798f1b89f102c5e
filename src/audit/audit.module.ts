import { Global, Module } from '@nestjs/common';
import { AuditEventsController } from './audit-events.controller.js';
import { AuditRepository } from './audit.repository.js';
import { AuditService } from './audit.service.js';

/**
 * The audit trail (docs/notifications.md), global: every feature records its changes through AuditService.
 */
@Global()
@Module({
  controllers: [AuditEventsController],
  providers: [AuditService, AuditRepository],
  exports: [AuditService],
})
export class AuditModule {}
