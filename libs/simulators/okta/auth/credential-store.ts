import { randomBytes, timingSafeEqual } from 'node:crypto';
import { type JWK, importJWK, jwtVerify } from 'jose';

import type { Principal } from './principal.js';

/**
 * An OAuth 2.0 client of the org authorization server: an installed API service integration
 * (client secret), or an API Services app that authenticates with `private_key_jwt` against the
 * public key registered on it (Okta "Implement OAuth for Okta with a service app").
 */
export interface OAuthClient {
  clientId: string;
  clientSecret?: string;
  /** the public key of a `private_key_jwt` client (JWK with `kid`) */
  publicJwk?: JWK;
  grantedScopes: readonly string[];
}

interface IssuedToken {
  clientId: string;
  scopes: ReadonlySet<string>;
  expiresAt: number;
}

/** Access tokens live 3600 s, Okta's default for the org authorization server. */
export const ACCESS_TOKEN_LIFETIME_SECONDS = 3600;

/**
 * The org's credentials: the admin API token, the registered OAuth clients and the access
 * tokens issued to them (opaque random strings, looked up on every call).
 */
export class CredentialStore {
  readonly adminToken = `00${randomBytes(30).toString('base64url')}`;
  private readonly clients = new Map<string, OAuthClient>();
  private readonly tokens = new Map<string, IssuedToken>();
  private readonly usedJtis = new Set<string>();
  /** API tokens created for named admins (`createApiToken`): token -> the admin's user id. */
  private readonly apiTokens = new Map<string, string>();

  constructor(private readonly now: () => number = Date.now) {}

  registerClient(client: OAuthClient): void {
    this.clients.set(client.clientId, client);
  }

  /** Forgets the client and revokes every token issued to it. */
  removeClient(clientId: string): void {
    this.clients.delete(clientId);
    for (const [token, issued] of this.tokens) if (issued.clientId === clientId) this.tokens.delete(token);
  }

  /** The client when the secret matches (constant-time comparison), else undefined. */
  authenticateClient(clientId: string, clientSecret: string): OAuthClient | undefined {
    const client = this.clients.get(clientId);
    return client?.clientSecret !== undefined && sameText(client.clientSecret, clientSecret)
      ? client
      : undefined;
  }

  /**
   * The client when `assertion` is a JWT it signed with its registered key, `iss` and `sub` its
   * id, `aud` the token endpoint, unexpired, with a `jti` not seen before (Okta "Build a JWT for
   * client authentication": a replayed jti is refused). Else undefined.
   */
  async authenticateAssertion(
    clientId: string,
    assertion: string,
    tokenUrl: string,
  ): Promise<OAuthClient | undefined> {
    const client = this.clients.get(clientId);
    if (!client?.publicJwk) return undefined;
    try {
      const key = await importJWK(client.publicJwk, client.publicJwk.alg ?? 'RS256');
      const { payload } = await jwtVerify(assertion, key, {
        issuer: clientId,
        subject: clientId,
        audience: tokenUrl,
        currentDate: new Date(this.now()),
      });
      if (typeof payload.jti !== 'string' || this.usedJtis.has(payload.jti)) return undefined;
      this.usedJtis.add(payload.jti);
      return client;
    } catch {
      return undefined;
    }
  }

  issueAccessToken(clientId: string, scopes: readonly string[]): string {
    const token = randomBytes(32).toString('base64url');
    this.tokens.set(token, {
      clientId,
      scopes: new Set(scopes),
      expiresAt: this.now() + ACCESS_TOKEN_LIFETIME_SECONDS * 1000,
    });
    return token;
  }

  isAdminToken(token: string): boolean {
    return sameText(this.adminToken, token);
  }

  /**
   * A new API token (`SSWS`) of the admin `userId`: what an admin does in the Admin Console
   * (Security > API > Tokens > Create token). Calls made with it are attributed to that admin
   * in the System Log, as Okta attributes an API token's calls to the admin who created it.
   */
  createApiToken(userId: string): string {
    const token = `00${randomBytes(30).toString('base64url')}`;
    this.apiTokens.set(token, userId);
    return token;
  }

  /**
   * Whose API token this is: null for the org's admin token (`adminToken`), the user id of the
   * admin who created it (`createApiToken`), undefined when it is no API token.
   */
  apiTokenOwner(token: string): string | null | undefined {
    if (this.isAdminToken(token)) return null;
    for (const [known, userId] of this.apiTokens) if (sameText(known, token)) return userId;
    return undefined;
  }

  /** The principal behind a live access token; undefined when unknown or expired. */
  principalFor(accessToken: string): Principal | undefined {
    const issued = this.tokens.get(accessToken);
    if (!issued) return undefined;
    if (issued.expiresAt <= this.now()) {
      this.tokens.delete(accessToken);
      return undefined;
    }
    return { clientId: issued.clientId, scopes: issued.scopes };
  }
}

function sameText(expected: string, actual: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(actual);
  return a.length === b.length && timingSafeEqual(a, b);
}
