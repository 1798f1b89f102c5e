import type { RestoreOption, RestoreOptionValues } from '@libs/providers/provider-restore.js';
import type { ProviderDescriptor } from '@libs/providers/provider-descriptor.js';
import { registeredProviders } from '@libs/providers/registry.js';

/** One flat restore option of the API, with the providers that declare it, in the registry's order. */
export interface DeclaredRestoreOption {
  name: string;
  default: boolean;
  declarations: Array<{ provider: ProviderDescriptor; option: RestoreOption }>;
}

/**
 * Every restore option of the registered providers (descriptor `restoreOptions`), by name, first
 * declaration first; a name two providers declare is one option, with the first one's default.
 */
export function declaredRestoreOptions(): DeclaredRestoreOption[] {
  const byName = new Map<string, DeclaredRestoreOption>();
  for (const provider of registeredProviders())
    for (const option of provider.restoreOptions ?? []) {
      const declared = byName.get(option.name) ?? {
        name: option.name,
        default: option.default,
        declarations: [],
      };
      declared.declarations.push({ provider, option });
      byName.set(option.name, declared);
    }
  return [...byName.values()];
}

/**
 * The values a restore body asks for (its flat booleans named as the options: `enforce`), each
 * option absent from it at its default: what a restore and its preview store (`options`).
 */
export function restoreOptionValues(body: object): RestoreOptionValues {
  const given = body as Record<string, unknown>;
  return Object.fromEntries(
    declaredRestoreOptions().map(({ name, default: fallback }) => [
      name,
      typeof given[name] === 'boolean' ? given[name] : fallback,
    ]),
  );
}

/** A stored restore's options as the API returns them: every declared option, at its default when not stored. */
export function restoreOptionFields(stored: RestoreOptionValues): Record<string, boolean> {
  return Object.fromEntries(
    declaredRestoreOptions().map(({ name, default: fallback }) => [name, stored[name] ?? fallback]),
  );
}
