import { Module } from '@nestjs/common';
import { AttributionModule } from '@app/attribution/attribution.module.js';
import { BackupsModule } from '@app/backups/backups.module.js';
import { ConnectionsModule } from '@app/connections/connections.module.js';
import { TimelineController } from './timeline.controller.js';
import { TimelineService } from './timeline.service.js';

/** Resource change history (spec "Resource timeline"). */
@Module({
  imports: [AttributionModule, BackupsModule, ConnectionsModule],
  controllers: [TimelineController],
  providers: [TimelineService],
  exports: [TimelineService],
})
export class TimelineModule {}
