import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { HealthStatus } from '@app/platform/health/health.service.js';

/** GET /api/health (spec "Health"). */
@ApiSchema({ name: 'Health' })
export class HealthDto implements HealthStatus {
  @ApiProperty({ enum: ['ok'] }) status!: 'ok';
  @ApiProperty({ type: 'integer', description: 'Seconds since this process started.', example: 3600 })
  uptime!: number;
  @ApiProperty({ example: '0.1.0' }) version!: string;
}
