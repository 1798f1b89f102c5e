import { ApiProperty, type ApiPropertyOptions, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

/**
 * A property holding any JSON value (the provider's own data). A TypeScript `unknown` would be
 * documented as an object, which a string or a number is not.
 */
export function AnyJsonProperty(
  options: { description?: string; required?: boolean } = {},
): PropertyDecorator {
  const schema: ApiPropertyOptions = {
    anyOf: [
      { type: 'string' },
      { type: 'number' },
      { type: 'boolean' },
      { type: 'object' },
      { type: 'array', items: {} },
      { type: 'null' },
    ],
    description: options.description,
  };
  return options.required === false ? ApiPropertyOptional(schema) : ApiProperty(schema);
}

/** One RFC 6902 operation, as diffs and timelines give a change (`path` is an RFC 6901 pointer). */
@ApiSchema({ name: 'JsonPatchOperation' })
export class JsonPatchOperationDto {
  @ApiProperty({ enum: ['add', 'remove', 'replace', 'move', 'copy', 'test'] }) op!: string;
  @ApiProperty({ example: '/profile/email' }) path!: string;
  @AnyJsonProperty({ description: 'add, replace and test.', required: false }) value?: unknown;
  @ApiPropertyOptional({ description: 'move and copy only.' }) from?: string;
}
