import type { ClientCredentialsTokenSource } from '@libs/providers/kit/client-credentials.js';
import { parseSince } from '@libs/providers/kit/since-instant.js';
import type { ChangeAttribution, ConfigurationChange } from '@libs/providers/provider-connector.js';
import { LogWindowExceededError, ProviderError } from '@libs/providers/provider-errors.js';
import { assertPermissionsGranted, grantedRoles } from './entra-permissions.js';
import { AUDIT_LOG_PERMISSION, auditRetentionDays, directoryAudits } from './entra-audit-log.js';
import { attributionFromAudits } from './entra-attribution.js';
import { configurationChangeOf } from './entra-drift.js';
import type { GraphApiClient, GraphObject } from './graph-api-client.js';

/**
 * The tenant's directory audit log as the connector reads it (Graph `auditLogs/directoryAudits`,
 * AuditLog.Read.All): its records, how far back it reaches, the configuration changes in it (drift)
 * and who changed which object (attribution).
 */
export class DirectoryAuditReader {
  /**
   * @param graph the connector's Graph client (its governor paces these reads too)
   * @param tokens the connector's token source: the token's `roles` are checked before a read
   * @param clientId the app registration's: its own writes are `byThisService`
   */
  constructor(
    private readonly graph: GraphApiClient,
    private readonly tokens: ClientCredentialsTokenSource,
    private readonly clientId: string,
  ) {}

  /**
   * The directory audit's records since `since` (ISO 8601): Graph's `directoryAudit` objects as
   * Graph answers them (activityDisplayName, category, initiatedBy, targetResources with
   * modifiedProperties...), newest first, read page by page under the connector's resource-unit
   * governor: who changed what, for drift and attribution. Records older than the log keeps
   * (retentionDays) are simply not there.
   * @throws ProviderError `invalid_since`; ProviderAuthError naming AuditLog.Read.All when the
   *   token does not carry it (nor Directory.Read.All), before any read
   */
  async *records(since: string, options: { signal?: AbortSignal } = {}): AsyncIterable<GraphObject> {
    const from = new Date(parseSince(since)).toISOString();
    const roles = grantedRoles(await this.tokens.accessToken());
    assertPermissionsGranted([AUDIT_LOG_PERMISSION], roles, 'reading the directory audit log');
    yield* directoryAudits(this.graph, from, options.signal);
  }

  /** Days the tenant's directory audit reaches back: 7, or 30 with Entra ID P1 or P2. */
  retentionDays(options: { signal?: AbortSignal } = {}): Promise<number> {
    return auditRetentionDays(this.graph, options.signal);
  }

  /**
   * Configuration changes the directory audit records since `since` (entra-drift.ts), in Graph's
   * order (newest first): failed activities and activity that is not configuration left out.
   * @throws ProviderError `invalid_since`; LogWindowExceededError `since_too_old` when `since` is
   *   older than the log keeps (7 days, 30 with Entra ID P1 or P2), naming the oldest instant held
   */
  async *configurationChanges(
    since: string,
    options: { signal?: AbortSignal } = {},
  ): AsyncIterable<ConfigurationChange> {
    await this.assertLogHolds(since, options);
    for await (const audit of this.records(since, options)) {
      const change = configurationChangeOf(audit);
      if (change) yield change;
    }
  }

  /**
   * Who changed which object between `since` and `until` (ISO 8601), oldest first, from the
   * directory audit (entra-attribution.ts): configuration changes that succeeded, one entry per
   * target resource; this app registration's own writes are `byThisService`.
   * @throws as `configurationChangesSince`: `invalid_since` (also for an `until` that is not an
   *   instant), `since_too_old`, ProviderAuthError naming AuditLog.Read.All
   */
  async *changeAttribution(
    since: string,
    until: string,
    options: { signal?: AbortSignal } = {},
  ): AsyncIterable<ChangeAttribution> {
    await this.assertLogHolds(since, options);
    const untilMs = Date.parse(until);
    if (Number.isNaN(untilMs))
      throw new ProviderError(
        'until must be an ISO 8601 instant, such as 2025-06-01T12:00:00Z',
        'invalid_since',
      );
    const audits: GraphObject[] = [];
    for await (const audit of this.records(since, options))
      if (Date.parse(String(audit.activityDateTime)) <= untilMs) audits.push(audit);
    yield* attributionFromAudits(audits, this.clientId);
  }

  /**
   * @throws ProviderError `invalid_since`; LogWindowExceededError `since_too_old` when `since` is
   *   older than the log keeps (7 days, 30 with Entra ID P1 or P2), naming the oldest instant held
   */
  private async assertLogHolds(since: string, options: { signal?: AbortSignal }): Promise<void> {
    const sinceMs = parseSince(since);
    const days = await this.retentionDays(options);
    const heldSince = Date.now() - days * 86_400_000;
    if (sinceMs < heldSince)
      throw new LogWindowExceededError(
        `${since} is older than the ${days} days Microsoft Entra ID keeps its directory audit log${days === 7 ? ' without an Entra ID P1 or P2 licence' : ''}`,
        'since_too_old',
        new Date(heldSince).toISOString(),
      );
  }
}
