import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '@app/common/decorators.js';
import { ApiErrorResponses } from '@app/common/openapi/api-error-responses.decorator.js';
import { HealthDto } from './dto/health.dto.js';
import { HealthService, type HealthStatus } from './health.service.js';

@ApiTags('health')
@Controller('api/health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  /** Spec "Health": 200 `{ status: 'ok', uptime, version }` when the database and job queue answer. */
  @Public()
  @Get()
  @ApiOperation({ summary: 'Health probe' })
  @ApiOkResponse({ type: HealthDto, description: 'The database and job queue answer.' })
  @ApiErrorResponses({ 503: 'The database, which carries the job queue, does not answer.' })
  check(): Promise<HealthStatus> {
    return this.health.check();
  }
}
