import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { JobRegistry } from './job-registry.js';
import { JobsService } from './jobs.service.js';

@Global()
@Module({ imports: [DiscoveryModule], providers: [JobsService, JobRegistry], exports: [JobsService] })
export class JobsModule {}
