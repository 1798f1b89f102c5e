import { Controller, Get } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '@app/common/decorators.js';
import { HealthService, type ReadinessStatus } from './health.service.js';

/**
 * Orchestrator probes beside the spec's /api/health (docs/operations.md): outside
 * `/api/`, since they are not part of the API the spec numbers, and so not in its OpenAPI document
 * (docs/operations.md describes them).
 */
@ApiExcludeController()
@Controller()
export class ProbesController {
  constructor(private readonly health: HealthService) {}

  /** Liveness: 200 `{ status: 'ok' }` while the process answers HTTP; it checks nothing else, so a database outage does not restart it. */
  @Public()
  @Get('livez')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** Readiness: 200 with each check, or 503 `{ error: 'Not ready: ...', code: 'not_ready' }` naming what failed. */
  @Public()
  @Get('readyz')
  ready(): Promise<ReadinessStatus> {
    return this.health.ready();
  }
}
