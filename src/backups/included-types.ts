import { providerDescriptor } from '@libs/providers/registry.js';
import type { ProviderKind } from '@libs/providers/provider-kind.js';
import { ValidationError } from '@app/common/errors.js';

/** Every resource type the provider's connector collects, in dependency order (none for one without a catalogue). */
export function supportedTypes(provider: ProviderKind): readonly string[] {
  return providerDescriptor(provider)?.resourceTypes ?? [];
}

/**
 * Resolves `include` of POST /api/backup/run (spec: "Resource categories"): each entry is a
 * category or a resource type of DESIGN section 4. Returns the types, deduplicated, in the
 * provider's dependency order. Also resolves the `resourceTypes` filters of diff and restore.
 * @param field the request field named in the error
 * @throws ValidationError listing the valid categories and types when an entry is unknown or the list is empty.
 */
export function resolveIncludedTypes(
  provider: ProviderKind,
  include: readonly string[],
  field = 'include',
): string[] {
  const descriptor = providerDescriptor(provider);
  const types: readonly string[] = descriptor?.resourceTypes ?? [];
  const categories: Readonly<Record<string, readonly string[]>> = descriptor?.categories ?? {};
  const unknown = include.filter((entry) => !types.includes(entry) && !(entry in categories));
  if (unknown.length > 0 || include.length === 0) {
    const valid = [...Object.keys(categories), ...types];
    throw new ValidationError(
      `${field}: unknown resource type or category ${unknown.join(', ') || '(empty list)'}; valid values: ${valid.join(', ')}`,
      [{ field, message: 'unknown resource type or category', unknown, valid }],
    );
  }
  const wanted = new Set(include.flatMap((entry) => categories[entry] ?? [entry]));
  return types.filter((type) => wanted.has(type));
}
