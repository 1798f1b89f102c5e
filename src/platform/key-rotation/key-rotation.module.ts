import { Module } from '@nestjs/common';
import { SecurityModule } from '@app/platform/security/security.module.js';
import { KeyRotationService } from './key-rotation.service.js';
import { KeyRotationRepository } from './key-rotation.repository.js';

/** Master key rotation, run by the admin CLI (`keys:rotate`). Needs the database and StorageModule. */
@Module({
  imports: [SecurityModule],
  providers: [KeyRotationRepository, KeyRotationService],
  exports: [KeyRotationService],
})
export class KeyRotationModule {}
