import { Logger } from '@nestjs/common';
import { ApiError } from '@app/common/errors.js';

const logger = new Logger('McpTools');

/**
 * The message of a tool error (MCP specification 2025-06-18, "Tools", "Error Handling": errors
 * of a tool's execution are reported in the result with `isError: true`, so the model can read
 * and correct them). A service's ApiError says what went wrong as the API would, with its code
 * and the fields that failed; anything else is logged once and answered without its message or
 * stack (as the API's 500: no internals, no secret), with the request id to find the log line.
 */
export function toolErrorMessage(error: unknown, tool: string, requestId: string | undefined): string {
  if (error instanceof ApiError) {
    const fields = Array.isArray(error.details)
      ? error.details
          .map((detail) =>
            [detail.field, detail.message].filter((part) => typeof part === 'string').join(': '),
          )
          .filter(Boolean)
      : [];
    return [`${error.code}: ${error.message}`, ...fields].join('; ');
  }
  logger.error(
    `Tool ${tool} failed (request ${requestId ?? 'unknown'}): ${error instanceof Error ? error.message : String(error)}`,
    error instanceof Error ? error.stack : undefined,
  );
  return `internal_error: the tool failed unexpectedly; request id ${requestId ?? 'unknown'}`;
}
