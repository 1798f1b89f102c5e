import type { ResourceRecord, ResourceType } from './resource-types.js';

/** The records of one resource type, streamed. Consume fully before asking for the next part. */
export interface ResourcePart {
  type: ResourceType;
  records: AsyncIterable<ResourceRecord>;
}

/** Requests made to the provider during a connector's life, for progress and benchmarks. */
export interface ConnectorStats {
  requests: number;
  /** Keyed by `METHOD /path/template`, e.g. `GET /api/v1/groups/{groupId}/users`. */
  byEndpoint: Record<string, number>;
  status429: number;
  retries: number;
}

/**
 * What every identity-provider connector (libs/providers/<kind>) offers the backup job.
 *
 * Errors: `ProviderAuthError` when the credentials are refused, `ProviderHostNotAllowedError`
 * when a URL is outside the allowed hosts (SSRF guard), `ProviderRequestError` for anything
 * else the provider answers that retries could not cure. All extend `ProviderError`.
 */
export interface ProviderConnector {
  /** Every type this connector collects, in dependency order (parents before children). */
  readonly resourceTypes: readonly ResourceType[];
  /** Fetches a token with the scopes a backup needs; throws ProviderAuthError when refused. */
  verifyCredentials(): Promise<void>;
  /**
   * Streams the given types (default: all) in dependency order, one part per type.
   * Parts of types with no objects are still yielded, with no records.
   */
  collect(options?: { types?: readonly ResourceType[]; signal?: AbortSignal }): AsyncIterable<ResourcePart>;
  stats(): ConnectorStats;
  /** Releases sockets. */
  close(): Promise<void>;
}
