import { API_SCOPE, MCP_SCOPE } from '@app/common/api-scope.js';
import type { AppConfig } from '@app/platform/config/app-config.js';

/** RFC 9728 §2 metadata of the API as a protected resource. */
export interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers: string[];
  bearer_methods_supported: string[];
  scopes_supported: string[];
  resource_name: string;
}

/**
 * Where the API's protected-resource metadata lives: the well-known suffix inserted before the
 * resource's path (RFC 9728 §3.1), e.g. `https://backup.example.com/.well-known/oauth-protected-resource/api/`.
 * Named by `WWW-Authenticate: Bearer resource_metadata="..."` on every 401 (RFC 9728 §5.1).
 */
export function protectedResourceMetadataUrl(config: Pick<AppConfig, 'BASE_URL'>): string {
  return `${config.BASE_URL}/.well-known/oauth-protected-resource/api/`;
}

/**
 * The API's RFC 9728 metadata: tokens come from this service's own authorization server, for
 * the audience `API_RESOURCE` (RFC 8707), in the Authorization header only (RFC 6750 §2.1).
 */
export function protectedResourceMetadata(
  config: Pick<AppConfig, 'BASE_URL' | 'API_RESOURCE'>,
): ProtectedResourceMetadata {
  return metadataOf(config, config.API_RESOURCE, API_SCOPE, 'Identity provider backup and restore API');
}

/** Where the MCP endpoint's RFC 9728 metadata lives: the well-known suffix before its path `/mcp` (§3.1). */
export function mcpResourceMetadataUrl(config: Pick<AppConfig, 'BASE_URL'>): string {
  return `${config.BASE_URL}/.well-known/oauth-protected-resource/mcp`;
}

/**
 * The metadata URL a 401 names (RFC 9728 §5.1): the MCP endpoint's for `/mcp`, the API's for
 * every other path.
 */
export function resourceMetadataUrlOf(config: Pick<AppConfig, 'BASE_URL'>, path: string): string {
  return path === MCP_PATH || path.startsWith(`${MCP_PATH}/`)
    ? mcpResourceMetadataUrl(config)
    : protectedResourceMetadataUrl(config);
}

/** Path of the MCP endpoint (Streamable HTTP transport, one URL for every message). */
export const MCP_PATH = '/mcp';

/**
 * The MCP endpoint's RFC 9728 metadata (MCP specification 2025-06-18, "Authorization": an MCP
 * server is an OAuth 2.1 resource server that MUST publish it): tokens from the same
 * authorization server, for the audience `MCP_RESOURCE` only (RFC 8707), so an API token is
 * refused there and the other way round.
 */
export function mcpResourceMetadata(
  config: Pick<AppConfig, 'BASE_URL' | 'MCP_RESOURCE'>,
): ProtectedResourceMetadata {
  return metadataOf(
    config,
    config.MCP_RESOURCE,
    MCP_SCOPE,
    'Identity provider backup and restore MCP server',
  );
}

/** A resource of this service: tokens from its own authorization server, in the header only. */
function metadataOf(
  config: Pick<AppConfig, 'BASE_URL'>,
  resource: string,
  scope: string,
  name: string,
): ProtectedResourceMetadata {
  return {
    resource,
    authorization_servers: [config.BASE_URL],
    bearer_methods_supported: ['header'],
    scopes_supported: [scope],
    resource_name: name,
  };
}
