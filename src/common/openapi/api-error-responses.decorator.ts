import { applyDecorators } from '@nestjs/common';
import { ApiResponse, type ApiResponseOptions, getSchemaPath } from '@nestjs/swagger';
import { DEFAULT_CODES } from '@app/common/http-exception.filter.js';
import { ErrorResponseDto } from './error-response.dto.js';

/** The error statuses the API answers with (spec "Errors", DESIGN section 4). */
export type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 409 | 413 | 415 | 429 | 500 | 502 | 503;

/** One error status of an operation: its machine codes and when it happens. */
export interface ErrorCase {
  codes: readonly string[];
  description: string;
}

/**
 * The error responses of an operation (or of every operation of a controller), each with the
 * shared `Error` schema, its possible `code` values and one example per code.
 * @param errors status -> when it happens; a plain string means the status's default code
 *   (DEFAULT_CODES of the exception filter: 404 `not_found`, 409 `conflict`...).
 */
export function ApiErrorResponses(
  errors: Partial<Record<ErrorStatus, string | ErrorCase>>,
): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...Object.entries(errors).map(([status, value]) => ApiResponse(errorResponse(Number(status), value))),
  );
}

/** One error response of the document: the `Error` schema, the codes and their examples. */
export function errorResponse(status: number, value: string | ErrorCase): ApiResponseOptions {
  const { codes, description } =
    typeof value === 'string' ? { codes: [DEFAULT_CODES[status]], description: value } : value;
  return {
    status,
    description: `${codes.map((code) => `\`${code}\``).join(', ')}: ${description}`,
    content: {
      'application/json': {
        schema: { $ref: getSchemaPath(ErrorResponseDto) },
        examples: Object.fromEntries(codes.map((code) => [code, { value: { error: description, code } }])),
      },
    },
  };
}
