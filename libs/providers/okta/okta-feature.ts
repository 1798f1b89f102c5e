import type { TransportResponse } from '@libs/providers/kit/http-transport.js';

/**
 * Whether Okta answered that the org lacks the feature the request needs (its edition or licence:
 * API Access Management for custom authorization servers...): `E0000015` "You do not have
 * permission to access the feature you are requesting". Recorded with 401 from a real org without
 * API Access Management (../shared/fixtures/okta/vcr: `POST /api/v1/authorizationServers` and
 * `GET /api/v1/authorizationServers/default` in classic-00) and described so in management.yaml
 * (`Error-FF-NotEnabled-Response-401`). A 403 with the same code is read the same way: the code,
 * not the status, names the cause. The token is good: it is not refreshed for such a 401.
 */
export function isFeatureNotEnabled(response: TransportResponse): boolean {
  if (response.status !== 401 && response.status !== 403) return false;
  try {
    return (JSON.parse(response.body) as { errorCode?: unknown }).errorCode === 'E0000015';
  } catch {
    return false;
  }
}
