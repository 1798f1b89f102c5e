import { ProviderError } from '@libs/providers/provider-errors.js';

/**
 * Epoch ms of an ISO 8601 instant with a date, a time and a zone (`2025-06-01T12:00:00Z`,
 * `...000+02:00`), at or before now: the start of an audit log query.
 * @throws ProviderError `invalid_since` for anything else
 */
export function parseSince(since: string): number {
  const ms = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/.test(since)
    ? Date.parse(since)
    : NaN;
  if (Number.isNaN(ms) || ms > Date.now())
    throw new ProviderError(
      'since must be an ISO 8601 instant in the past, such as 2025-06-01T12:00:00Z',
      'invalid_since',
    );
  return ms;
}
