import { API_SCOPE } from '@app/common/api-scope.js';
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
  return {
    resource: config.API_RESOURCE,
    authorization_servers: [config.BASE_URL],
    bearer_methods_supported: ['header'],
    scopes_supported: [API_SCOPE],
    resource_name: 'Identity provider backup and restore API',
  };
}
