import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import type { Drift, ResilienceScore, ScoreFactor } from '@libs/compliance/resilience-score.js';

/** One weighted factor of the resilience score (spec "Score factor"; weights in docs/scores.md). */
@ApiSchema({ name: 'ScoreFactor' })
class ScoreFactorDto implements ScoreFactor {
  @ApiProperty({ example: 'recency' }) name!: string;
  @ApiProperty({ description: 'Share of the score; the five weights sum to 100.', example: 25 })
  weight!: number;
  @ApiProperty({ minimum: 0, maximum: 100 }) value!: number;
  @ApiProperty() notes!: string;
}

/** GET /api/scores/resilience (spec "Scores"). */
@ApiSchema({ name: 'ResilienceScore' })
export class ResilienceDto implements ResilienceScore {
  @ApiProperty({ minimum: 0, maximum: 100, example: 74 }) score!: number;
  @ApiProperty({ type: [ScoreFactorDto] }) factors!: ScoreFactorDto[];
  @ApiProperty({ type: [String] }) recommendations!: string[];
}

/** Changes since the last backup as the drift job last read them. */
@ApiSchema({ name: 'Drift' })
class DriftDto implements Drift {
  @ApiProperty({ type: 'integer' }) changes!: number;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    example: { critical: 0, high: 2 },
  })
  bySeverity!: Record<string, number>;
  @ApiProperty({ format: 'date-time' }) checkedAt!: string;
  @ApiProperty({
    format: 'date-time',
    description: 'The backup the live org was compared with started then.',
  })
  since!: string;
  @ApiProperty({
    format: 'date-time',
    description:
      'Changes were counted from then: `since`, or later when the provider’s audit log no longer reaches back to the last backup (Entra ID keeps its directory audit 7 days, 30 with Entra ID P1 or P2; Okta its System Log 90 days). Changes before it are unknown, not absent.',
  })
  countedFrom!: string;
  @ApiPropertyOptional({
    description:
      'Present when `countedFrom` is later than `since`: why the audit log could not cover the whole time since the last backup.',
    example:
      '2026-11-20T10:00:00.000Z is older than the 7 days Microsoft Entra ID keeps its directory audit log without an Entra ID P1 or P2 licence',
  })
  incompleteReason?: string;
  @ApiPropertyOptional({ description: 'Why the last reading failed, when it did.' }) error?: string;
}

/** One connection in GET /api/scores/readiness (spec "Readiness entry"). */
@ApiSchema({ name: 'ReadinessEntry' })
export class ReadinessEntryDto {
  @ApiProperty({ format: 'uuid' }) connectionId!: string;
  @ApiProperty({ minimum: 0, maximum: 100 }) score!: number;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'null before the first backup.',
  })
  lastBackupAt!: string | null;
  @ApiProperty({ type: DriftDto, nullable: true, description: 'null before the drift job’s first reading.' })
  drift!: (Drift & { since: string; countedFrom: string; incompleteReason?: string; error?: string }) | null;
}

/** GET /api/scores/readiness (spec "Scores"). */
@ApiSchema({ name: 'Readiness' })
export class ReadinessDto {
  @ApiProperty({ minimum: 0, maximum: 100 }) score!: number;
  @ApiProperty({ type: [ReadinessEntryDto] }) perConnection!: ReadinessEntryDto[];
}
