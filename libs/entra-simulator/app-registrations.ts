import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

import { GraphError } from './graph-error.js';

/** What a verified access token says: the app and its granted application permissions. */
export interface GraphPrincipal {
  appId: string;
  roles: readonly string[];
}

/** Graph's resource for app-only tokens; the scope asked is `<resource>/.default`. */
export const GRAPH_RESOURCE = 'https://graph.microsoft.com';
/** Lifetime of an app-only access token, s (the identity platform issues 3599 by default). */
const TOKEN_LIFETIME_S = 3599;

/**
 * The tenant's app registrations with a client secret and the application permissions an admin
 * consented to, and the access tokens issued to them: JWTs signed HS256 with a key of this
 * simulator (Entra signs RS256 with published keys; clients must treat Graph tokens as opaque
 * except for reading claims, which is all the connector does). Claims follow the identity
 * platform's access token reference: `aud`, `iss`, `tid`, `appid`, `oid`, `roles`, `iat`, `nbf`, `exp`.
 */
export class AppRegistrations {
  readonly #key = randomBytes(32);
  readonly #apps = new Map<string, { secret: string; roles: string[] }>();

  constructor(
    private readonly tenantId: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Registers an app with a new client secret and the given application permissions granted. */
  register(roles: readonly string[]): { clientId: string; clientSecret: string } {
    const clientId = randomUUID();
    // Entra's secrets are 40 characters with a `~` among them; the shape does not matter here.
    const clientSecret = `${randomBytes(3).toString('hex')}~${randomBytes(24).toString('base64url')}`;
    this.#apps.set(clientId, { secret: clientSecret, roles: [...roles] });
    return { clientId, clientSecret };
  }

  /** Replaces the permissions granted to an app (admin consent given or revoked). */
  grant(clientId: string, roles: readonly string[]): void {
    const app = this.#apps.get(clientId);
    if (!app) throw new Error(`no app ${clientId}`);
    app.roles = [...roles];
  }

  /**
   * An access token for the app, as the token endpoint answers a client credentials grant.
   * @throws GraphError `invalid_client` (AADSTS700016 unknown app, AADSTS7000215 wrong secret)
   */
  issue(
    clientId: string,
    clientSecret: string,
  ): { access_token: string; token_type: 'Bearer'; expires_in: number; ext_expires_in: number } {
    const app = this.#apps.get(clientId);
    if (!app)
      throw new GraphError(
        400,
        'unauthorized_client',
        `Application with identifier '${clientId}' was not found in the directory.`,
        { aadsts: 700016 },
      );
    if (!sameText(app.secret, clientSecret))
      throw new GraphError(
        401,
        'invalid_client',
        'Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID.',
        { aadsts: 7000215 },
      );
    const iat = Math.floor(this.now() / 1000);
    const claims = {
      aud: GRAPH_RESOURCE,
      iss: `https://sts.windows.net/${this.tenantId}/`,
      iat,
      nbf: iat,
      exp: iat + TOKEN_LIFETIME_S,
      appid: clientId,
      oid: clientId,
      tid: this.tenantId,
      // Absent when no application permission is granted (the identity platform omits an empty `roles`).
      ...(app.roles.length > 0 ? { roles: app.roles } : {}),
    };
    return {
      access_token: this.sign(claims),
      token_type: 'Bearer',
      expires_in: TOKEN_LIFETIME_S,
      ext_expires_in: TOKEN_LIFETIME_S,
    };
  }

  /**
   * The principal of an `Authorization: Bearer` header.
   * @throws GraphError 401 `InvalidAuthenticationToken` when absent, forged or expired
   */
  verify(authorization: string | undefined): GraphPrincipal {
    const token = /^Bearer (\S+)$/i.exec(authorization ?? '')?.[1];
    if (!token) throw new GraphError(401, 'InvalidAuthenticationToken', 'Access token is empty.');
    const [header, payload, signature] = token.split('.');
    if (!header || !payload || !signature || !sameText(signature, this.signature(`${header}.${payload}`)))
      throw new GraphError(
        401,
        'InvalidAuthenticationToken',
        'Access token validation failure. Invalid audience.',
      );
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
      exp: number;
      appid: string;
      roles?: string[];
    };
    if (claims.exp * 1000 <= this.now())
      throw new GraphError(
        401,
        'InvalidAuthenticationToken',
        'Lifetime validation failed, the token is expired.',
      );
    return { appId: claims.appid, roles: claims.roles ?? [] };
  }

  private sign(claims: object): string {
    const head = Buffer.from(JSON.stringify({ typ: 'JWT', alg: 'HS256' })).toString('base64url');
    const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${head}.${body}.${this.signature(`${head}.${body}`)}`;
  }

  private signature(input: string): string {
    return createHmac('sha256', this.#key).update(input).digest('base64url');
  }
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
