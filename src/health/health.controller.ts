import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '@app/common/decorators.js';
import { HealthService, type HealthStatus } from './health.service.js';

@ApiTags('health')
@Controller('api/health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  /** Spec "Health": 200 `{ status: 'ok', uptime, version }` when the database and job queue answer. */
  @Public()
  @Get()
  @ApiOkResponse({ description: '{ status: "ok", uptime (seconds), version }' })
  check(): Promise<HealthStatus> {
    return this.health.check();
  }
}
