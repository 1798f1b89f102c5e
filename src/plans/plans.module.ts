import { Global, Module } from '@nestjs/common';
import { PlanLimitsService } from './plan-limits.service.js';
import { PlansRepository } from './plans.repository.js';

/** Plan limits (docs/plans.md), global: each limited action's service checks them first. */
@Global()
@Module({ providers: [PlanLimitsService, PlansRepository], exports: [PlanLimitsService] })
export class PlansModule {}
