import { ENTRA_PROVIDER } from './entra/entra-provider.js';
import { OKTA_PROVIDER } from './okta/okta-provider.js';
import { WORKFLOWS_PROVIDER } from './okta-workflows/workflows-provider.js';
import type { ProviderDescriptor } from './provider-descriptor.js';
import { ProviderError } from './provider-errors.js';
import type { ProviderKind } from './provider-kind.js';

/**
 * The providers this build can connect to, the primary kind first. Adding one is its folder under
 * `libs/providers/<kind>` and a line here (docs/architecture.md, "Adding a provider"); the list of
 * kinds, the connection bodies' credential fields and the restore options all come from it.
 */
const PROVIDERS: ReadonlyMap<ProviderKind, ProviderDescriptor> = new Map<ProviderKind, ProviderDescriptor>(
  [OKTA_PROVIDER, WORKFLOWS_PROVIDER, ENTRA_PROVIDER].map((descriptor) => [descriptor.kind, descriptor]),
);

/** The kind POST /api/connections/create makes when the body names none (spec "Connections"): Okta. */
export const PRIMARY_PROVIDER_KIND: ProviderKind = OKTA_PROVIDER.kind;

/** The kinds a connection can be created for, in the registry's order. */
export function registeredProviderKinds(): ProviderKind[] {
  return [...PROVIDERS.keys()];
}

/** Every registered descriptor, in the registry's order. */
export function registeredProviders(): ProviderDescriptor[] {
  return [...PROVIDERS.values()];
}

/** The descriptor of a kind, or undefined for a kind this build cannot connect to. */
export function providerDescriptor(kind: ProviderKind): ProviderDescriptor | undefined {
  return PROVIDERS.get(kind);
}

/**
 * The descriptor of a kind this build connects to.
 * @throws ProviderError `provider_not_available` for another kind
 */
export function requireProvider(kind: ProviderKind): ProviderDescriptor {
  const descriptor = PROVIDERS.get(kind);
  if (!descriptor)
    throw new ProviderError(`${kind} connections are not available yet`, 'provider_not_available');
  return descriptor;
}

/**
 * How a diff of the kind's snapshots rates and details changes: its own severity table and
 * record parts, with those of the kind `includeWorkflows` adds (`workflowsKind`) first, since
 * that kind's rules apply to its types only and the kind's own table ends with a catch-all.
 * @throws ProviderError `provider_not_available` for a kind this build does not connect to
 */
export function diffModelOf(
  kind: ProviderKind,
): Pick<ProviderDescriptor, 'severityRules' | 'scopingParents' | 'changeParts'> {
  const own = requireProvider(kind);
  const included = own.workflowsKind ? providerDescriptor(own.workflowsKind) : undefined;
  if (!included) return own;
  return {
    severityRules: [...included.severityRules, ...own.severityRules],
    scopingParents: { ...included.scopingParents, ...own.scopingParents },
    changeParts: (type, before, after, patch) => [
      ...(own.changeParts?.(type, before, after, patch) ?? []),
      ...(included.changeParts?.(type, before, after, patch) ?? []),
    ],
  };
}
