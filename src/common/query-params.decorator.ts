import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, Max, Min } from 'class-validator';

/**
 * `limit` of a paged list: a whole number from 1 to `max`; a larger one is a 400, not a silent
 * clamp, so a client never believes it got everything when it did not (docs/decisions.md).
 */
export function PageLimit(defaultValue: number, max: number): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ default: defaultValue, minimum: 1, maximum: max }),
    IsOptional(),
    Type(() => Number),
    IsInt(),
    Min(1),
    Max(max),
  );
}

/** `offset` of a paged list: a whole number from 0. */
export function PageOffset(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ default: 0 }),
    IsOptional(),
    Type(() => Number),
    IsInt(),
    Min(0),
  );
}

/** A boolean query parameter: `true` or `false`; anything else is a 400. */
export function QueryBoolean(description?: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ default: false, description }),
    IsOptional(),
    Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value)),
    IsBoolean(),
  );
}
