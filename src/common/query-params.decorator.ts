import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsDate, IsInt, IsOptional, Max, MaxDate, Min, MinDate } from 'class-validator';

/**
 * Largest whole number a query parameter may carry: 2^53 - 1, the last integer a JS number holds
 * exactly, and well inside PostgreSQL's bigint (2^63 - 1), which a larger one would overflow
 * into a 500 (docs/security.md "Request validation").
 */
export const MAX_QUERY_INTEGER = Number.MAX_SAFE_INTEGER;

/**
 * Earliest and latest instants a timestamp parameter may name: the four-digit years of ISO 8601
 * (0001 to 9999). PostgreSQL's timestamptz stops at 4713 BC and JS dates reach 271821 BC, so
 * without a bound a date such as -200000-01-01 reached the database as a 500 (docs/security.md "Request
 * validation").
 */
export const EARLIEST_QUERY_TIMESTAMP = new Date('0001-01-01T00:00:00.000Z');
export const LATEST_QUERY_TIMESTAMP = new Date('9999-12-31T23:59:59.999Z');

/**
 * An optional whole-number query parameter from `min` to `max` (at most MAX_QUERY_INTEGER);
 * anything else, a fraction or a number past the bounds included, is a 400 naming the field.
 */
export function QueryInteger(options: {
  min: number;
  max?: number;
  default?: number;
  description?: string;
}): PropertyDecorator {
  const max = Math.min(options.max ?? MAX_QUERY_INTEGER, MAX_QUERY_INTEGER);
  return applyDecorators(
    ApiPropertyOptional({
      type: 'integer',
      minimum: options.min,
      maximum: max,
      default: options.default,
      description: options.description,
    }),
    IsOptional(),
    Type(() => Number),
    IsInt(),
    Min(options.min),
    Max(max),
  );
}

/**
 * An optional ISO 8601 timestamp query parameter, from EARLIEST_QUERY_TIMESTAMP to
 * LATEST_QUERY_TIMESTAMP; anything else is a 400 naming the field.
 */
export function QueryTimestamp(description: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      type: 'string',
      format: 'date-time',
      description: `${description} Years 0001 to 9999.`,
    }),
    IsOptional(),
    Type(() => Date),
    IsDate(),
    MinDate(EARLIEST_QUERY_TIMESTAMP),
    MaxDate(LATEST_QUERY_TIMESTAMP),
  );
}

/**
 * `limit` of a paged list: a whole number from 1 to `max`; a larger one is a 400, not a silent
 * clamp, so a client never believes it got everything when it did not (docs/decisions.md).
 */
export function PageLimit(defaultValue: number, max: number): PropertyDecorator {
  return QueryInteger({ min: 1, max, default: defaultValue });
}

/** `offset` of a paged list: a whole number from 0 to MAX_QUERY_INTEGER. */
export function PageOffset(): PropertyDecorator {
  return QueryInteger({ min: 0, default: 0 });
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
