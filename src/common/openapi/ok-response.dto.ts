import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/** `{ ok: true }`: the answer of a deletion or an action that returns nothing else (spec "Endpoints"). */
@ApiSchema({ name: 'Ok' })
export class OkResponseDto {
  @ApiProperty({ type: 'boolean', enum: [true], example: true }) ok!: true;
}
