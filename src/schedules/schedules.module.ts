import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ConnectionsModule } from '@app/connections/connections.module.js';
import { ScheduleEntity } from './schedule.entity.js';
import { SchedulesController } from './schedules.controller.js';
import { SchedulesRepository } from './schedules.repository.js';
import { SchedulesService } from './schedules.service.js';

/**
 * Backup schedules of connections; the scheduler (src/platform/cron) drives `SchedulesService.enqueueDue`
 * with the backups feature's start, and backups read the incremental policy from here.
 */
@Module({
  imports: [TypeOrmModule.forFeature([ScheduleEntity]), ConnectionsModule],
  controllers: [SchedulesController],
  providers: [SchedulesService, SchedulesRepository],
  exports: [SchedulesService],
})
export class SchedulesModule {}
