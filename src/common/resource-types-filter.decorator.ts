import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsOptional, IsString } from 'class-validator';
import { csv } from './csv.transform.js';

/**
 * The optional `resourceTypes` filter of diff and restore: resource types or categories
 * (docs/resource-types.md), an array in a body or comma-separated (or repeated) in a query string.
 * Names are checked against the provider's catalog by `resolveIncludedTypes`, not here.
 */
export function ResourceTypesFilter(description: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: [String], maxItems: 100, description }),
    IsOptional(),
    Transform(csv),
    IsArray(),
    ArrayMaxSize(100),
    IsString({ each: true }),
  );
}
