import { ProviderError } from '@libs/providers/provider-errors.js';

/** Okta's clouds (Okta "Okta org URLs") and their Workflows hosts: `{org}.workflows.<cloud>`. */
const OKTA_CLOUDS = ['okta.com', 'oktapreview.com', 'okta-emea.com'];

/**
 * The Workflows origin of an Okta org: `https://acme.okta.com` -> `https://acme.workflows.okta.com`
 * (Okta Workflows "Invoke a flow with an API endpoint": `https://{org}.workflows.okta.com/api/flo/...`).
 * An org URL outside Okta's clouds (a host the operator allows through PROVIDER_ALLOWED_HOSTS,
 * such as a simulator serving both) keeps its own origin.
 * @throws ProviderError `invalid_org_url` when `orgOrigin` is an Okta admin (`-admin`) URL
 */
export function workflowsOrigin(orgOrigin: string): string {
  const url = new URL(orgOrigin);
  const cloud = OKTA_CLOUDS.find((domain) => url.hostname.endsWith(`.${domain}`));
  if (!cloud) return url.origin;
  const org = url.hostname.slice(0, -cloud.length - 1);
  if (org.includes('.') || org.endsWith('-admin'))
    throw new ProviderError(
      'org_url must be the Okta org URL, such as https://acme.okta.com',
      'invalid_org_url',
    );
  return `https://${org}.workflows.${cloud}`;
}
