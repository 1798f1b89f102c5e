import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { JobRegistry } from './job-registry.js';
import { JobsService } from './jobs.service.js';
import { StaleRunSweeper } from './tracked-run/stale-run.sweeper.js';
import { TrackedRunRunner } from './tracked-run/tracked-run.runner.js';

/** pg-boss jobs (DESIGN section 1), declared with `@OnJob`; tracked runs' runner and stale sweep. */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [JobsService, JobRegistry, TrackedRunRunner, StaleRunSweeper],
  exports: [JobsService, TrackedRunRunner],
})
export class JobsModule {}
