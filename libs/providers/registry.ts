import { ENTRA_PROVIDER } from './entra/entra-provider.js';
import { OKTA_PROVIDER } from './okta/okta-provider.js';
import { WORKFLOWS_PROVIDER } from './okta-workflows/workflows-provider.js';
import type { ProviderDescriptor } from './provider-descriptor.js';
import { ProviderError } from './provider-errors.js';
import type { ProviderKind } from './provider-kind.js';

/**
 * The providers this build can connect to, by kind. Adding one is its folder under
 * `libs/providers/<kind>` and a line here (docs/architecture.md, "Adding a provider").
 */
const PROVIDERS: Partial<Record<ProviderKind, ProviderDescriptor>> = {
  okta: OKTA_PROVIDER,
  okta_workflows: WORKFLOWS_PROVIDER,
  entra_id: ENTRA_PROVIDER,
};

/** The kinds a connection can be created for, in the registry's order. */
export const AVAILABLE_PROVIDER_KINDS = Object.keys(PROVIDERS) as ProviderKind[];

/** The descriptor of a kind, or undefined for a kind this build cannot connect to (yet). */
export function providerDescriptor(kind: ProviderKind): ProviderDescriptor | undefined {
  return PROVIDERS[kind];
}

/**
 * The descriptor of a kind this build connects to.
 * @throws ProviderError `provider_not_available` for another kind
 */
export function requireProvider(kind: ProviderKind): ProviderDescriptor {
  const descriptor = PROVIDERS[kind];
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
