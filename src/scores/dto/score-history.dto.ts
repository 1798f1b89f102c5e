import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/** One reading of a connection's two scores. */
@ApiSchema({ name: 'ScorePoint' })
class ScorePointDto {
  @ApiProperty({
    format: 'date-time',
    description: 'When the reading was taken.',
    example: '2026-12-07T00:07:00.000Z',
  })
  at!: string;
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    maximum: 100,
    description: 'Resilience then, as GET /api/scores/resilience answered.',
    example: 74,
  })
  resilience!: number;
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    maximum: 100,
    description: 'The connection’s readiness then, as its entry in GET /api/scores/readiness.',
    example: 67,
  })
  readiness!: number;
}

/** GET /api/scores/history (beyond the spec, docs/scores.md "History"). */
@ApiSchema({ name: 'ScoreHistory' })
export class ScoreHistoryDto {
  @ApiProperty({
    type: [ScorePointDto],
    description: 'Readings of the period, oldest first: one a day, and one after each completed backup.',
  })
  points!: ScorePointDto[];
}
