import { lookup as dnsLookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { createOutboundFetch, type OutboundFetch } from '@app/identity/sign-in/outbound-fetch.js';
import { isAllowedAddress } from './public-address.js';

/** Refusal of a client metadata document URL before any byte is sent. */
export class MetadataDocumentRefusedError extends Error {}

/**
 * A DNS lookup that fails unless every address of the name is allowed (public, or loopback
 * with the test allowance). undici connects to what it returns, so the address checked is the
 * address connected to (no DNS-rebinding window between a check and the connection).
 */
function guardedLookup(allowLoopback: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const refused = addresses.find((entry) => !isAllowedAddress(entry.address, allowLoopback));
      if (refused || addresses.length === 0) {
        const reason = refused ? `resolves to ${refused.address}, not a public address` : 'has no address';
        return callback(new MetadataDocumentRefusedError(`${hostname} ${reason}`), '', 0);
      }
      if (options.all) return callback(null, addresses);
      return callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/**
 * The `fetch` the authorization server uses for Client ID Metadata Documents
 * (draft-ietf-oauth-client-id-metadata-document §6 "Security Considerations", SSRF): https
 * only; the host must resolve to public addresses only (checked at connection time, above);
 * redirects are never followed (a 3xx is returned as is, and oidc-provider refuses anything
 * but 200). oidc-provider adds the time cap (2.5 s) and the size cap (fetchResponseBodyLimits).
 * @param allowLoopback OAUTH_CIMD_ALLOW_LOOPBACK: tests serve documents from 127.0.0.1.
 * @param ca extra trusted CAs (AUTH_CA_FILE), or undefined for Node's roots.
 */
export function createMetadataDocumentFetch(options: {
  allowLoopback: boolean;
  ca?: string[];
}): OutboundFetch {
  const outbound = createOutboundFetch({ ca: options.ca, lookup: guardedLookup(options.allowLoopback) });
  return async (url, init) => {
    const target = new URL(url);
    if (target.protocol !== 'https:')
      throw new MetadataDocumentRefusedError('client metadata documents are fetched over https only');
    // A literal address is connected to without a lookup, so it is checked here.
    const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
    if (isIP(host) && !isAllowedAddress(host, options.allowLoopback)) {
      throw new MetadataDocumentRefusedError(`${host} is not a public address`);
    }
    return outbound(url, { ...init, redirect: 'manual' });
  };
}
