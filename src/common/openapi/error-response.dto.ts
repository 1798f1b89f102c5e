import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

/**
 * The one error body of the API (spec "Errors", DESIGN section 4), as HttpExceptionFilter
 * writes it: `error` always, `code` always in practice (the spec makes it optional), the request
 * id, the invalid fields of a 400, and the `limit` and `plan` of a 402.
 */
@ApiSchema({ name: 'Error' })
export class ErrorResponseDto {
  @ApiProperty({ description: 'Human-readable message.', example: 'Backup not found' })
  error!: string;

  @ApiPropertyOptional({ description: 'Machine code (docs/api.md lists them).', example: 'not_found' })
  code?: string;

  @ApiPropertyOptional({
    description: 'Also sent as the `X-Request-Id` header; quote it when reporting a problem.',
    example: '0d6c2a8e-5a5b-4b4e-9f51-6f1c0a8d2f3e',
  })
  requestId?: string;

  @ApiPropertyOptional({
    description:
      '400: each invalid field and why (a list), or what the provider answered to a connection check (an object).',
    oneOf: [
      {
        type: 'array',
        items: {
          type: 'object',
          properties: { field: { type: 'string' }, message: { type: 'string' } },
          required: ['field', 'message'],
        },
      },
      { type: 'object' },
    ],
  })
  details?: Array<{ field: string; message: string }> | Record<string, unknown>;

  @ApiPropertyOptional({ description: '402 only: the plan limit reached.', example: 'connections' })
  limit?: string;

  @ApiPropertyOptional({ description: "402 only: the team's plan.", example: 'free' })
  plan?: string;
}
