import { Agent, fetch } from 'undici';

/** An installed Okta API service integration: the OAuth client a connection uses. */
export interface ApiServiceIntegration {
  clientId: string;
  clientSecret: string;
}

/**
 * Installs an API service integration in an Okta org, as an admin does from the integration
 * catalog (`POST /integrations/api/v1/api-services`, Okta API Service Integrations API).
 * @param caCertPem the CA to trust for the org's certificate (the simulator's)
 * @throws Error with Okta's answer when the org refuses
 */
export async function installApiServiceIntegration(
  org: { baseUrl: string; adminToken: string; caCertPem: string },
  grantedScopes: readonly string[],
): Promise<ApiServiceIntegration> {
  const dispatcher = new Agent({ connect: { ca: org.caCertPem } });
  try {
    const response = await fetch(`${org.baseUrl}/integrations/api/v1/api-services`, {
      method: 'POST',
      dispatcher,
      headers: {
        Authorization: `SSWS ${org.adminToken}`,
        'Content-Type': 'application/json',
        Accept: 'application/json',
      },
      body: JSON.stringify({ type: 'idp_backup', grantedScopes }),
    });
    const body = (await response.json()) as { id?: string; clientSecret?: string };
    if (!response.ok || !body.id || !body.clientSecret) {
      throw new Error(
        `Installing the API service integration failed: ${response.status} ${JSON.stringify(body)}`,
      );
    }
    return { clientId: body.id, clientSecret: body.clientSecret };
  } finally {
    await dispatcher.close();
  }
}
