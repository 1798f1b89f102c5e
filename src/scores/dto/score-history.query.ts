import { ApiProperty } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';
import { QueryInteger } from '@app/common/query-params.decorator.js';

/** Query of GET /api/scores/history (beyond the spec, docs/scores.md "History"). */
export class ScoreHistoryQuery {
  @ApiProperty({ format: 'uuid', description: 'A connection of the caller’s team.' })
  @IsUUID()
  connectionId!: string;

  @QueryInteger({ min: 1, max: 365, default: 30, description: 'How many days back from now, 1 to 365.' })
  days: number = 30;
}
