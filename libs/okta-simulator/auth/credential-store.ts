import { randomBytes, timingSafeEqual } from 'node:crypto';

import type { Principal } from './principal.js';

/** An OAuth 2.0 client of the org authorization server (an installed API service integration). */
export interface OAuthClient {
  clientId: string;
  clientSecret: string;
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
    return client && sameText(client.clientSecret, clientSecret) ? client : undefined;
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
