import { ApiProperty } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';

/** Query of GET /api/scores/resilience (spec "Scores"). */
export class ResilienceQuery {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  connectionId!: string;
}
