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
const PROVIDERS = new Map<ProviderKind, ProviderDescriptor>(
  [OKTA_PROVIDER, WORKFLOWS_PROVIDER, ENTRA_PROVIDER].map((descriptor) => [descriptor.kind, descriptor]),
);

/** Whether the list of kinds was read (the bodies read it once, when their modules load). */
let listed = false;

/**
 * Adds a provider this build does not ship, after the built-in ones: a test's fixture provider
 * (test/fixtures/providers). The connection and restore bodies read the list when their modules
 * load, so it must run before the application's modules are imported (a test registers, then
 * imports the app dynamically).
 * @throws Error when the kind is registered already, or when the list was already read
 */
export function registerProvider(descriptor: ProviderDescriptor): void {
  if (PROVIDERS.has(descriptor.kind)) throw new Error(`provider ${descriptor.kind} is registered already`);
  if (listed)
    throw new Error(
      `provider ${descriptor.kind} registered after the list of providers was read: register before importing the app`,
    );
  PROVIDERS.set(descriptor.kind, descriptor);
}

/** The kind POST /api/connections/create makes when the body names none (spec "Connections"): Okta. */
export const PRIMARY_PROVIDER_KIND: ProviderKind = OKTA_PROVIDER.kind;

/** The kinds a connection can be created for, in the registry's order. */
export function registeredProviderKinds(): ProviderKind[] {
  listed = true;
  return [...PROVIDERS.keys()];
}

/** Every registered descriptor, in the registry's order. */
export function registeredProviders(): ProviderDescriptor[] {
  listed = true;
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
