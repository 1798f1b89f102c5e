import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BackupsModule } from '@app/backups/backups.module.js';
import { ConnectionsModule } from '@app/connections/connections.module.js';
import { ScheduleEntity } from './schedule.entity.js';
import { SchedulesController } from './schedules.controller.js';
import { SchedulesRepository } from './schedules.repository.js';
import { SchedulesService } from './schedules.service.js';

/** Backup schedules of connections; the scheduler (src/scheduler) drives `SchedulesService.enqueueDue`. */
@Module({
  imports: [TypeOrmModule.forFeature([ScheduleEntity]), ConnectionsModule, BackupsModule],
  controllers: [SchedulesController],
  providers: [SchedulesService, SchedulesRepository],
  exports: [SchedulesService],
})
export class SchedulesModule {}
