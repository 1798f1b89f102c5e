import type { ResourceRecord } from '@libs/records/resource-record.js';
import type { GraphApiClient, GraphObject } from '@libs/providers/entra/graph-api-client.js';

/** Whether an `identifierUriRestriction` is on for an app created now (`state` enabled, its date passed). */
function enforcedNow(restriction: unknown): boolean {
  if (restriction === null || typeof restriction !== 'object') return false;
  const { state, restrictForAppsCreatedAfterDateTime: after } = restriction as Record<string, unknown>;
  return state === 'enabled' && (typeof after !== 'string' || Date.parse(after) < Date.now());
}

/**
 * The identifier URIs Graph would refuse on a restore's applications, for the preview:
 * - a URI another live application holds ("application": identifier URIs must be unique in the
 *   tenant);
 * - on an application the restore creates, a URI the tenant's default app management policy
 *   refuses to new apps (learn.microsoft.com/graph/api/resources/identifieruriconfiguration,
 *   /identifierurirestriction): `nonDefaultUriAddition` (only `api://{appId}`; the restore
 *   rewrites the backup's `api://<old appId>` to it) and `uriAdditionWithoutUniqueTenantIdentifier`
 *   (the URI must name the app id, the tenant id or a verified domain). Exemptions (v2 tokens,
 *   SAML apps) waive them.
 */
export class IdentifierUriCheck {
  /** live application id -> its identifier URIs, lower case */
  private readonly held = new Map<string, string[]>();
  private restrictions: Record<string, unknown> = {};
  private identifiers: string[] = [];

  /**
   * Reads the live applications' URIs ("List applications"), the default app management policy
   * ("Get tenantAppManagementPolicy") and the tenant's id and verified domains ("List organization").
   * @throws as GraphApiClient.pages
   */
  async load(graph: GraphApiClient, signal?: AbortSignal): Promise<void> {
    for await (const page of graph.pages({
      template: '/v1.0/applications',
      select: ['id', 'identifierUris'],
      paged: true,
      signal,
    }))
      for (const app of page)
        this.held.set(
          String(app.id),
          ((app.identifierUris ?? []) as string[]).map((uri) => uri.toLowerCase()),
        );
    const policy = await graph.objectIfFound({
      template: '/v1.0/policies/defaultAppManagementPolicy',
      signal,
    });
    const restrictions = (policy?.applicationRestrictions as GraphObject | null | undefined)?.identifierUris;
    this.restrictions = policy?.isEnabled === false ? {} : ((restrictions ?? {}) as Record<string, unknown>);
    for await (const page of graph.pages({
      template: '/v1.0/organization',
      select: ['id', 'verifiedDomains'],
      signal,
    }))
      for (const organization of page)
        this.identifiers.push(
          String(organization.id).toLowerCase(),
          ...((organization.verifiedDomains ?? []) as GraphObject[]).map((domain) =>
            String(domain.name).toLowerCase(),
          ),
        );
  }

  /** What the preview says of an application record's URIs Graph would refuse, or null. */
  caution(record: ResourceRecord): string | null {
    if (record.type !== 'application') return null;
    const uris = Array.isArray(record.data.identifierUris) ? record.data.identifierUris.map(String) : [];
    const oldAppId = String(record.data.appId).toLowerCase();
    const created = !this.held.has(record.id);
    const api = (record.data.api ?? {}) as GraphObject;
    const refusals: string[] = [];
    for (const uri of uris) {
      const lower = uri.toLowerCase();
      const holder = [...this.held].find(([id, held]) => id !== record.id && held.includes(lower));
      if (holder)
        refusals.push(
          `${uri} is held by application ${holder[0]} (identifier URIs are unique in the tenant)`,
        );
      if (!created || lower.includes(oldAppId)) continue;
      const waived = (name: string) => {
        const restriction = this.restrictions[name] as GraphObject | undefined;
        return restriction?.excludeAppsReceivingV2Tokens === true && api.requestedAccessTokenVersion === 2;
      };
      if (enforcedNow(this.restrictions.nonDefaultUriAddition) && !waived('nonDefaultUriAddition'))
        refusals.push(
          `${uri} is not api://{appId}, which the app management policy (nonDefaultUriAddition) requires of a new app`,
        );
      else if (
        enforcedNow(this.restrictions.uriAdditionWithoutUniqueTenantIdentifier) &&
        !waived('uriAdditionWithoutUniqueTenantIdentifier') &&
        !this.identifiers.some((name) => lower.includes(name))
      )
        refusals.push(
          `${uri} names neither the app, the tenant nor a verified domain (uriAdditionWithoutUniqueTenantIdentifier)`,
        );
    }
    if (refusals.length === 0) return null;
    return `Graph would refuse identifier URIs of application ${String(record.data.displayName ?? record.id)}: ${refusals.join('; ')}. Free the URI or change the app management policy, then restore again`;
  }
}
