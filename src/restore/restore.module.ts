import { Module } from '@nestjs/common';
import { BackupsModule } from '../backups/backups.module.js';
import { ConnectionsModule } from '../connections/connections.module.js';
import { RestoreController } from './restore.controller.js';
import { RestoreService } from './restore.service.js';

/** Restore into the live org (spec "Restore"; DESIGN section 6). */
@Module({
  imports: [BackupsModule, ConnectionsModule],
  controllers: [RestoreController],
  providers: [RestoreService],
})
export class RestoreModule {}
