import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BackupsModule } from '@app/backups/backups.module.js';
import { ConnectionsModule } from '@app/connections/connections.module.js';
import { ApprovalGateModule } from '@app/approvals/approval-gate.module.js';
import { RestoreItemEntity } from './restore-item.entity.js';
import { RestorePreviewEntity } from './restore-preview.entity.js';
import { RestorePreviewJob } from './restore-preview.job.js';
import { RestorePreviewer } from './restore-previewer.js';
import { RestorePackages } from './restore-packages.js';
import { RestorePreviewsRepository } from './restore-previews.repository.js';
import { RestoreRunJob } from './restore-run.job.js';
import { RestoreController } from './restore.controller.js';
import { RestoreEntity } from './restore.entity.js';
import { RestoreService } from './restore.service.js';
import { RestoresRepository } from './restores.repository.js';
import { AttributionModule } from '@app/attribution/attribution.module.js';
import { RestoreUndo } from './undo/restore-undo.js';
import { UndoController } from './undo/undo.controller.js';
import { CrossOrgTargets } from './cross-org/cross-org-target.js';
import { CrossOrgPreviewer } from './cross-org/cross-org-previewer.js';
import { SandboxDrills } from './cross-org/sandbox-drill.js';

/** Restore into the live org (spec "Restore"; DESIGN sections 4 and 6; docs/restore.md). */
@Module({
  imports: [
    TypeOrmModule.forFeature([RestoreEntity, RestoreItemEntity, RestorePreviewEntity]),
    BackupsModule,
    ConnectionsModule,
    ApprovalGateModule,
    AttributionModule,
  ],
  // UndoController first: its static path comes before RestoreController's `:restoreId`.
  controllers: [UndoController, RestoreController],
  providers: [
    RestoreService,
    RestoresRepository,
    RestoreRunJob,
    RestorePreviewer,
    RestorePreviewsRepository,
    RestorePreviewJob,
    RestorePackages,
    RestoreUndo,
    CrossOrgTargets,
    CrossOrgPreviewer,
    SandboxDrills,
  ],
  exports: [RestoreService, CrossOrgTargets, SandboxDrills],
})
export class RestoreModule {}
