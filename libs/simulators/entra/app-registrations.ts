import {
  createHash,
  createHmac,
  randomBytes,
  randomUUID,
  timingSafeEqual,
  X509Certificate,
} from 'node:crypto';
import { decodeProtectedHeader, errors, jwtVerify } from 'jose';

import type { AuditInitiator } from './directory-audit.js';
import { GraphError } from './graph-error.js';

/** A user an app's calls stand for (a delegated token's subject), as audit records name one. */
export type ActingUser = NonNullable<AuditInitiator['user']>;

/** What a verified access token says: the app and its granted application permissions. */
export interface GraphPrincipal {
  appId: string;
  roles: readonly string[];
}

/** What the token endpoint answers a granted request. */
export interface AccessTokenAnswer {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  ext_expires_in: number;
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
  readonly #apps = new Map<string, { secret: string; roles: string[]; certificates: X509Certificate[] }>();
  /** the service principal each app has in the tenant, by app id (what audit records name) */
  readonly #principals = new Map<string, { servicePrincipalId: string; displayName: string }>();
  /** the user whose delegated token an app's calls stand for, by app id (testing: `actAs`) */
  readonly #actingUsers = new Map<string, ActingUser>();

  constructor(
    private readonly tenantId: string,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Registers an app with a new client secret and the given application permissions granted, and
   * with `certificatePem` uploaded as a certificate credential (its public part: what the app
   * registration's "Certificates & secrets" holds).
   */
  register(roles: readonly string[], certificatePem?: string): { clientId: string; clientSecret: string } {
    const clientId = randomUUID();
    // Entra's secrets are 40 characters with a `~` among them; the shape does not matter here.
    const clientSecret = `${randomBytes(3).toString('hex')}~${randomBytes(24).toString('base64url')}`;
    const certificates = certificatePem ? [new X509Certificate(certificatePem)] : [];
    this.#apps.set(clientId, { secret: clientSecret, roles: [...roles], certificates });
    this.#principals.set(clientId, {
      servicePrincipalId: randomUUID(),
      displayName: `Registered app ${clientId.slice(0, 8)}`,
    });
    return { clientId, clientSecret };
  }

  /**
   * From now on, the calls of `clientId` stand for `user` (as with a delegated token the user
   * signed in for): audit records name the user as their initiator. Null goes back to app-only.
   */
  actAs(clientId: string, user: ActingUser | null): void {
    this.app(clientId);
    if (user) this.#actingUsers.set(clientId, user);
    else this.#actingUsers.delete(clientId);
  }

  /**
   * Who a call of `appId` is, as a directory audit's `initiatedBy` names it: the user it acts
   * for, else the app with its service principal ("auditActivityInitiator resource type").
   */
  initiatorOf(appId: string): AuditInitiator {
    const user = this.#actingUsers.get(appId);
    if (user) return { app: null, user };
    const principal = this.#principals.get(appId);
    return {
      app: {
        appId,
        displayName: principal?.displayName ?? appId,
        servicePrincipalId: principal?.servicePrincipalId ?? appId,
        servicePrincipalName: null,
      },
      user: null,
    };
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
  issue(clientId: string, clientSecret: string): AccessTokenAnswer {
    if (!sameText(this.app(clientId).secret, clientSecret))
      throw new GraphError(
        401,
        'invalid_client',
        'Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID.',
        { aadsts: 7000215 },
      );
    return this.mint(clientId);
  }

  /**
   * An access token for a client that proves itself with a JWT signed by a certificate of its
   * registration (Microsoft identity platform "certificate credentials"; RFC 7523 §2.2): the header
   * names the certificate by `x5t#S256` (SHA-256) or `x5t` (SHA-1 thumbprint), `alg` PS256 (or the
   * older RS256); `iss` and `sub` are the client id, `aud` the token endpoint, and `exp`/`nbf` hold
   * now.
   * @param clientId the form's `client_id`, when given (it must then be the assertion's)
   * @param tokenUrl the token endpoint as called, the audience the assertion must name
   * @throws GraphError AADSTS50027 malformed, AADSTS700016 unknown app, AADSTS700021 client id
   *   mismatch, AADSTS700027 unknown certificate or bad signature, AADSTS700024 expired or not yet
   *   valid, AADSTS700023 another audience
   */
  async issueForAssertion(
    clientId: string | null,
    assertion: string,
    tokenUrl: string,
  ): Promise<AccessTokenAnswer> {
    let header: ReturnType<typeof decodeProtectedHeader>;
    let claims: { iss?: unknown; sub?: unknown };
    try {
      header = decodeProtectedHeader(assertion);
      claims = JSON.parse(
        Buffer.from(assertion.split('.')[1] ?? '', 'base64url').toString('utf8'),
      ) as typeof claims;
    } catch {
      throw new GraphError(400, 'invalid_request', 'JWT token is invalid or malformed.', { aadsts: 50027 });
    }
    const issuer = String(claims.iss);
    if ((clientId !== null && clientId !== issuer) || claims.sub !== claims.iss)
      throw new GraphError(
        401,
        'invalid_client',
        "Client assertion application identifier doesn't match 'client_id' parameter.",
        { aadsts: 700021 },
      );
    const app = this.app(issuer);
    const certificate = app.certificates.find(
      (c) =>
        header['x5t#S256'] === createHash('sha256').update(c.raw).digest('base64url') ||
        header.x5t === createHash('sha1').update(c.raw).digest('base64url'),
    );
    const signatureFailed = (why: string): GraphError =>
      new GraphError(401, 'invalid_client', `Client assertion failed signature validation. ${why}`, {
        aadsts: 700027,
      });
    if (!certificate)
      throw signatureFailed(
        'The certificate with identifier used to sign the client assertion is not registered on application.',
      );
    try {
      await jwtVerify(assertion, certificate.publicKey, {
        algorithms: ['PS256', 'RS256'],
        issuer,
        subject: issuer,
        requiredClaims: ['exp', 'aud'],
        currentDate: new Date(this.now()),
      });
    } catch (error) {
      if (
        error instanceof errors.JWTExpired ||
        (error instanceof errors.JWTClaimValidationFailed && error.claim === 'nbf')
      )
        throw new GraphError(401, 'invalid_client', 'Client assertion is not within its valid time range.', {
          aadsts: 700024,
        });
      throw signatureFailed('The signature does not verify with the registered certificate.');
    }
    const { aud } = claims as { aud?: unknown };
    if (!(Array.isArray(aud) ? aud : [aud]).includes(tokenUrl))
      throw new GraphError(
        401,
        'invalid_client',
        'Client assertion audience claim does not match Realm issuer.',
        {
          aadsts: 700023,
        },
      );
    return this.mint(issuer);
  }

  /** @throws GraphError `unauthorized_client` AADSTS700016 for an app the tenant does not hold */
  private app(clientId: string): { secret: string; roles: string[]; certificates: X509Certificate[] } {
    const app = this.#apps.get(clientId);
    if (!app)
      throw new GraphError(
        400,
        'unauthorized_client',
        `Application with identifier '${clientId}' was not found in the directory.`,
        { aadsts: 700016 },
      );
    return app;
  }

  private mint(clientId: string): AccessTokenAnswer {
    const app = this.app(clientId);
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
