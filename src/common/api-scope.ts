/**
 * The API's one OAuth scope. Permissions come from the caller's team role (DESIGN section 3), so
 * the scope only names the API as a whole: the authorization server grants it, the protected
 * resource metadata (RFC 9728) lists it and the OpenAPI document declares it.
 */
export const API_SCOPE = 'api';

/**
 * The MCP endpoint's one OAuth scope, on its own resource (`MCP_RESOURCE`): what tools an agent
 * sees still comes from the team role, as on the API.
 */
export const MCP_SCOPE = 'mcp';
