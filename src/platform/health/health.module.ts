import { Module } from '@nestjs/common';
import { HealthController } from './health.controller.js';
import { HealthRepository } from './health.repository.js';
import { HealthService } from './health.service.js';
import { ProbesController } from './probes.controller.js';

@Module({ controllers: [HealthController, ProbesController], providers: [HealthService, HealthRepository] })
export class HealthModule {}
