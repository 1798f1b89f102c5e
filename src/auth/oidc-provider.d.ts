/**
 * The part of oidc-provider 9's API this service uses; the package ships no type declarations.
 * Shapes follow the library's configuration reference (lib/helpers/defaults.js).
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  /** What oidc-provider persists per model (AccessToken, Session, Grant, ...). */
  export interface AdapterPayload {
    [key: string]: unknown;
    grantId?: string;
    userCode?: string;
    uid?: string;
    /** Epoch seconds when consumed (authorization codes, refresh tokens). */
    consumed?: number;
  }

  /** Storage of one model; `expiresIn` is in seconds. */
  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  /** Client metadata (RFC 7591 names); a type alias so it is assignable to AdapterPayload. */
  export type ClientMetadata = {
    client_id: string;
    client_secret?: string;
    client_secret_expires_at?: number;
    client_name?: string;
    grant_types?: string[];
    response_types?: string[];
    redirect_uris?: string[];
    token_endpoint_auth_method?: string;
    scope?: string;
  };

  export interface Client {
    readonly clientId: string;
    compareClientSecret(actual: string): boolean | Promise<boolean>;
  }

  /** A protected resource as `features.resourceIndicators.getResourceServerInfo` describes it. */
  export interface ResourceServerInfo {
    scope: string;
    audience: string;
    /** Seconds. */
    accessTokenTTL: number;
    accessTokenFormat: 'opaque' | 'jwt';
    jwt?: { sign?: { alg: string } };
  }

  /** Koa context extended by oidc-provider; opaque to this service. */
  export type KoaContextWithOIDC = object;

  export interface JsonWebKey {
    [key: string]: unknown;
    kty?: string;
    kid?: string;
  }

  export interface Configuration {
    adapter?: (name: string) => Adapter;
    jwks?: { keys: JsonWebKey[] };
    routes?: Record<string, string>;
    scopes?: string[];
    claims?: Record<string, string[] | null>;
    clientAuthMethods?: string[];
    clientDefaults?: Record<string, unknown>;
    clockTolerance?: number;
    responseTypes?: string[];
    pkce?: { required: () => boolean };
    enabledJWA?: Record<string, string[]>;
    ttl?: Record<string, number | ((ctx: KoaContextWithOIDC, token: unknown, client: Client) => number)>;
    findAccount?: (ctx: KoaContextWithOIDC, sub: string) => Promise<undefined>;
    features?: Record<string, Record<string, unknown>>;
  }

  export class Provider {
    constructor(issuer: string, configuration?: Configuration);
    readonly issuer: string;
    /** Koa's `app.proxy`: trust X-Forwarded-Proto / X-Forwarded-Host. */
    proxy: boolean;
    readonly Client: { prototype: Client };
    /** The Koa request handler. */
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
    on(event: 'server_error', listener: (ctx: KoaContextWithOIDC, error: Error) => void): this;
  }

  export const errors: {
    InvalidTarget: new (description?: string) => Error;
  };

  export default Provider;
}
