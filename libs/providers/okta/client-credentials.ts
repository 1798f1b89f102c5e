import { ProviderAuthError, ProviderRequestError } from '@libs/providers/provider-errors.js';
import type { OktaTransport } from './okta-transport.js';

/** Okta's org authorization server token endpoint (Okta "Implement OAuth for Okta"). */
export const TOKEN_TEMPLATE = '/oauth2/v1/token';

/**
 * `application/x-www-form-urlencoded` encoding of one value, which RFC 6749 §2.3.1 requires for
 * the client id and secret before they are joined by ':' and base64-encoded (so a ':' or a
 * non-ASCII character in either survives). URLSearchParams implements that serializer.
 */
export function formUrlEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}

/**
 * Access tokens for an Okta API service integration: the `client_credentials` grant with
 * `client_secret_basic` (RFC 6749 §4.4, §2.3.1), the only method Okta offers such integrations.
 *
 * A token is cached until shortly before `expires_in` (60 s, or a tenth of the lifetime when
 * shorter) and fetched once for all concurrent callers. The secret lives in a private field
 * and never enters a message.
 */
export class ClientCredentialsTokenSource {
  readonly #authorization: string;
  #cached: { token: string; refreshAtMs: number } | undefined;
  #pending: Promise<string> | undefined;

  constructor(
    private readonly transport: OktaTransport,
    private readonly orgOrigin: string,
    clientId: string,
    clientSecret: string,
    private readonly scopes: readonly string[],
    private readonly now: () => number = Date.now,
  ) {
    const credentials = `${formUrlEncode(clientId)}:${formUrlEncode(clientSecret)}`;
    this.#authorization = `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`;
  }

  /**
   * A valid bearer token.
   *
   * @throws ProviderAuthError when Okta refuses the grant (RFC 6749 §5.2 `error`, e.g.
   *   `invalid_client`, `invalid_scope`), naming Okta's answer and, for scopes, those requested;
   *   ProviderRequestError when the endpoint keeps failing (429/5xx after retries);
   *   ProviderError `provider_unreachable` on network failure.
   */
  accessToken(signal?: AbortSignal): Promise<string> {
    if (this.#cached && this.now() < this.#cached.refreshAtMs) return Promise.resolve(this.#cached.token);
    this.#pending ??= this.fetchToken(signal).finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }

  /** Forgets `token` after Okta answered 401 to it, so the next call fetches a new one. */
  invalidate(token: string): void {
    if (this.#cached?.token === token) this.#cached = undefined;
  }

  private async fetchToken(signal?: AbortSignal): Promise<string> {
    const response = await this.transport.send({
      method: 'POST',
      url: new URL(TOKEN_TEMPLATE, this.orgOrigin),
      template: TOKEN_TEMPLATE,
      headers: {
        authorization: this.#authorization,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        scope: this.scopes.join(' '),
      }).toString(),
      // The grant has no side effect but minting a token: safe to send again.
      idempotent: true,
      signal,
    });
    const body = parseJson(response.body);
    if (response.status === 200) return this.accept(body);
    if (response.status === 429 || response.status >= 500) {
      throw new ProviderRequestError(
        `Okta's token endpoint kept failing with HTTP ${response.status} after retries`,
        response.status,
      );
    }
    throw new ProviderAuthError(this.refusal(response.status, body));
  }

  private accept(body: unknown): string {
    const {
      access_token: token,
      token_type: tokenType,
      expires_in: expiresIn,
    } = (body ?? {}) as Record<string, unknown>;
    if (typeof token !== 'string' || token === '') {
      throw new ProviderAuthError('Okta answered the token request without an access_token');
    }
    if (typeof tokenType === 'string' && tokenType.toLowerCase() !== 'bearer') {
      throw new ProviderAuthError(
        `Okta issued a ${tokenType} token; turn off "Require DPoP" for this API service integration`,
      );
    }
    // RFC 6749 §5.1 makes expires_in optional; without it assume a conservative 5 minutes.
    const lifetimeMs = (typeof expiresIn === 'number' && expiresIn > 0 ? expiresIn : 300) * 1000;
    this.#cached = { token, refreshAtMs: this.now() + lifetimeMs - Math.min(60_000, lifetimeMs / 10) };
    return token;
  }

  private refusal(status: number, body: unknown): string {
    const { error, error_description: description } = (body ?? {}) as Record<string, unknown>;
    const answer =
      typeof error === 'string'
        ? `${error}${typeof description === 'string' ? `: ${truncate(description)}` : ''}`
        : `HTTP ${status}`;
    const scopes = error === 'invalid_scope' ? ` (requested scopes: ${this.scopes.join(' ')})` : '';
    return `Okta refused the client credentials: ${answer}${scopes}`;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function truncate(text: string): string {
  return text.length > 300 ? `${text.slice(0, 300)}...` : text;
}
