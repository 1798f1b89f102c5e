import { ProviderError } from '@libs/providers/provider-errors.js';

/** Codes that retrying cannot cure: the name does not resolve, or the TLS peer is not trusted. */
const PERMANENT_CODES = new Set(['ENOTFOUND', 'ERR_INVALID_URL']);
const TLS_CODE = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/;

/** A transport failure (no HTTP answer) and whether a retry may cure it. */
export interface NetworkFailure {
  /** Connection refused or reset, dropped socket, timeout, DNS hiccup (`EAI_AGAIN`). */
  transient: boolean;
  /** ProviderError code `provider_unreachable`, with a message naming the host and the cause. */
  error: ProviderError;
}

/**
 * Classifies an error thrown by undici for a request to `url` of `provider` (its display name,
 * e.g. `Okta`, which the message names) (Node's `code`s: `ECONNREFUSED`,
 * `ENOTFOUND`, `UND_ERR_SOCKET`, `UND_ERR_HEADERS_TIMEOUT`, TLS codes such as
 * `DEPTH_ZERO_SELF_SIGNED_CERT`). The message carries no request header, so no secret.
 */
export function classifyNetworkError(cause: unknown, url: URL, provider: string): NetworkFailure {
  const code = errorCode(cause);
  const detail = cause instanceof Error ? cause.message : String(cause);
  const where = `${provider} at ${url.origin}`;
  if (TLS_CODE.test(code)) {
    return {
      transient: false,
      error: new ProviderError(
        `Cannot reach ${where}: its TLS certificate is not trusted (${code}: ${detail}); ` +
          'check the org URL, or configure the CA that signs it',
        'provider_unreachable',
      ),
    };
  }
  const reason =
    code === 'ENOTFOUND'
      ? `the host name does not resolve (${code})`
      : code === 'ECONNREFUSED'
        ? `the connection was refused (${code})`
        : `${detail}${code ? ` (${code})` : ''}`;
  return {
    transient: !PERMANENT_CODES.has(code),
    error: new ProviderError(`Cannot reach ${where}: ${reason}`, 'provider_unreachable'),
  };
}

/** The first `code` along the error's `cause` chain, '' when none. */
function errorCode(error: unknown): string {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return '';
}
