import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '@app/common/decorators.js';
import { HealthService, type ReadinessStatus } from './health.service.js';

/**
 * Orchestrator probes beside the spec's /api/health (issue 34, docs/operations.md): outside
 * `/api/`, since they are not part of the API the spec numbers.
 */
@ApiTags('health')
@Controller()
export class ProbesController {
  constructor(private readonly health: HealthService) {}

  /** Liveness: 200 `{ status: 'ok' }` while the process answers HTTP; it checks nothing else, so a database outage does not restart it. */
  @Public()
  @Get('livez')
  @ApiOkResponse({ description: '{ status: "ok" }' })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** Readiness: 200 with each check, or 503 `{ error: 'Not ready: ...', code: 'not_ready' }` naming what failed. */
  @Public()
  @Get('readyz')
  @ApiOkResponse({
    description: '{ status: "ready", checks: { database, migrations, object_store, workers } }',
  })
  @ApiServiceUnavailableResponse({
    description: '{ error: "Not ready: database unreachable, ...", code: "not_ready" }',
  })
  ready(): Promise<ReadinessStatus> {
    return this.health.ready();
  }
}
