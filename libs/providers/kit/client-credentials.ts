import { ProviderAuthError, ProviderRequestError } from '@libs/providers/provider-errors.js';
import {
  type ClientAssertionKey,
  JWT_BEARER_ASSERTION_TYPE,
  signClientAssertion,
} from './client-assertion.js';
import type { HttpTransport } from './http-transport.js';

/** Bearer tokens for a connector's API calls, whatever the grant behind them. */
export interface TokenSource {
  /** A valid bearer token, fetched once for all concurrent callers. */
  accessToken(signal?: AbortSignal): Promise<string>;
  /** Forgets `token` after the API answered 401 to it, so the next call fetches a new one. */
  invalidate(token: string): void;
}

/**
 * How the client proves itself at the token endpoint: a secret (`client_secret_basic`, RFC 6749
 * §2.3.1) or a private key (`private_key_jwt`, RFC 7523 §2.2; client-assertion.ts).
 */
export type ClientAuthentication = { clientSecret: string } | { assertionKey: ClientAssertionKey };

/** Where and how a client-credentials grant is asked for. */
export type ClientCredentialsOptions = ClientCredentialsEndpoint & {
  clientId: string;
} & ClientAuthentication;

/** The token endpoint and what to ask it for. */
export interface ClientCredentialsEndpoint {
  /** The provider's display name for messages, e.g. `Okta`. */
  provider: string;
  /** The token endpoint (Okta: `{org}/oauth2/v1/token`). */
  tokenUrl: URL;
  /** Its path template, the stats and rate-limit key (`/oauth2/v1/token`). */
  template: string;
  scopes: readonly string[];
  /** Said after a token type other than Bearer, how to turn the binding off at the provider. */
  notBearerHint: string;
}

/**
 * `application/x-www-form-urlencoded` encoding of one value, which RFC 6749 §2.3.1 requires for
 * the client id and secret before they are joined by ':' and base64-encoded (so a ':' or a
 * non-ASCII character in either survives). URLSearchParams implements that serializer.
 */
export function formUrlEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}

/**
 * Access tokens from the `client_credentials` grant (RFC 6749 §4.4), the client authenticated
 * with `client_secret_basic` (§2.3.1: Okta's API service integrations, Graph's app secrets) or
 * `private_key_jwt` (a fresh RFC 7523 assertion per request: Okta's public-key apps, Graph's
 * certificate credentials).
 *
 * A token is cached until shortly before `expires_in` (60 s, or a tenth of the lifetime when
 * shorter) and fetched once for all concurrent callers. The secret or key lives in a private
 * field and never enters a message.
 */
export class ClientCredentialsTokenSource implements TokenSource {
  /** Headers and form fields that authenticate one token request. */
  readonly #authenticate: () => Promise<{ headers: Record<string, string>; form: Record<string, string> }>;
  #cached: { token: string; refreshAtMs: number } | undefined;
  #pending: Promise<string> | undefined;
  private readonly options: ClientCredentialsEndpoint;
  private readonly provider: string;
  private readonly scopes: readonly string[];

  constructor(
    private readonly transport: HttpTransport,
    { clientId, ...rest }: ClientCredentialsOptions,
    private readonly now: () => number = Date.now,
  ) {
    const { tokenUrl } = rest;
    if ('assertionKey' in rest) {
      const { assertionKey, ...options } = rest;
      this.options = options;
      this.#authenticate = async () => ({
        headers: {},
        form: {
          client_id: clientId,
          client_assertion_type: JWT_BEARER_ASSERTION_TYPE,
          client_assertion: await signClientAssertion(assertionKey, clientId, tokenUrl, this.now()),
        },
      });
    } else {
      const { clientSecret, ...options } = rest;
      this.options = options;
      const credentials = `${formUrlEncode(clientId)}:${formUrlEncode(clientSecret)}`;
      const authorization = `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`;
      this.#authenticate = () => Promise.resolve({ headers: { authorization }, form: {} });
    }
    this.provider = this.options.provider;
    this.scopes = this.options.scopes;
  }

  /**
   * A valid bearer token.
   *
   * @throws ProviderAuthError when the provider refuses the grant (RFC 6749 §5.2 `error`, e.g.
   *   `invalid_client`, `invalid_scope`), naming its answer and, for scopes, those requested;
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

  invalidate(token: string): void {
    if (this.#cached?.token === token) this.#cached = undefined;
  }

  private async fetchToken(signal?: AbortSignal): Promise<string> {
    const { headers, form } = await this.#authenticate();
    const response = await this.transport.send({
      method: 'POST',
      url: this.options.tokenUrl,
      template: this.options.template,
      headers: {
        ...headers,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        scope: this.scopes.join(' '),
        ...form,
      }).toString(),
      // The grant has no side effect but minting a token: safe to send again.
      idempotent: true,
      signal,
    });
    const body = parseJson(response.body);
    if (response.status === 200) return this.accept(body);
    if (response.status === 429 || response.status >= 500) {
      throw new ProviderRequestError(
        `${this.provider}'s token endpoint kept failing with HTTP ${response.status} after retries`,
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
      throw new ProviderAuthError(`${this.provider} answered the token request without an access_token`);
    }
    if (typeof tokenType === 'string' && tokenType.toLowerCase() !== 'bearer') {
      throw new ProviderAuthError(
        `${this.provider} issued a ${tokenType} token; ${this.options.notBearerHint}`,
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
    return `${this.provider} refused the client credentials: ${answer}${scopes}`;
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
