import { OKTA_RESOURCE_TYPES } from '@libs/providers/resource-types.js';
import { ValidationError } from '../common/errors.js';
import type { ProviderKind } from '../connections/connection.entity.js';

const TYPES_BY_PROVIDER: Partial<Record<ProviderKind, readonly string[]>> = { okta: OKTA_RESOURCE_TYPES };

/**
 * Validates `include` of POST /api/backup/run against the provider's resource types
 * (DESIGN section 4 vocabulary) and returns them deduplicated, in the provider's order.
 * @throws ValidationError listing the valid values when one is unknown.
 */
export function resolveIncludedTypes(provider: ProviderKind, include: readonly string[]): string[] {
  const valid = TYPES_BY_PROVIDER[provider] ?? [];
  const unknown = include.filter((type) => !valid.includes(type));
  if (unknown.length > 0 || include.length === 0) {
    throw new ValidationError(
      `include: unknown resource type(s) ${unknown.join(', ') || '(empty list)'}; valid values: ${valid.join(', ')}`,
      [{ field: 'include', message: 'unknown resource type', unknown, valid }],
    );
  }
  return valid.filter((type) => include.includes(type));
}
