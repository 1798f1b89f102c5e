import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { TrackedRunEntity } from './tracked-run.entity.js';

/** The documented progress and time fields of a tracked run's DTO; each kind adds its `status` enum. */
export abstract class TrackedRunFieldsDto {
  @ApiProperty({ minimum: 0, maximum: 100 }) progress_pct!: number;
  @ApiProperty() progress_message!: string;
  @ApiPropertyOptional({ type: String, nullable: true }) error_message!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true }) started_at!: string | null;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true }) completed_at!: string | null;
}

/** The fields every tracked run's DTO shows (a restore, a restore preview): state, progress, times. */
export interface TrackedRunFields<S extends string> {
  status: S;
  progress_pct: number;
  progress_message: string;
  error_message: string | null;
  /** ISO 8601 */
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
}

/** The DTO fields of a tracked run's row, times as ISO 8601. */
export function trackedRunFields<S extends string>(
  run: TrackedRunEntity & { status: S; createdAt: Date },
): TrackedRunFields<S> {
  return {
    status: run.status,
    progress_pct: run.progressPct,
    progress_message: run.progressMessage,
    error_message: run.errorMessage,
    created_at: run.createdAt.toISOString(),
    started_at: run.startedAt?.toISOString() ?? null,
    completed_at: run.completedAt?.toISOString() ?? null,
  };
}
