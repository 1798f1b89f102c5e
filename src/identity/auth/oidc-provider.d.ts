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
    application_type?: string;
  };

  export interface Client {
    readonly clientId: string;
    readonly clientName?: string;
    /** What `client_secret` holds: for registered clients, the stored hash (see ClientStore). */
    readonly clientSecret?: string;
    readonly redirectUris: string[];
    compareClientSecret(actual: string): boolean | Promise<boolean>;
    grantTypeAllowed(type: string): boolean;
  }

  /** The consent record of one account for one client (oidc-provider's Grant model). */
  export interface Grant {
    addOIDCScope(scope: string): void;
    addResourceScope(resource: string, scope: string): void;
    /** Space-separated scopes granted for `resource`. */
    getResourceScope(resource: string): string;
    /** @returns the grant id. */
    save(): Promise<string>;
  }

  /** An interaction in progress, as `interactionDetails` returns it. */
  export interface InteractionDetails {
    uid: string;
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    /** The authorization request's parameters. */
    params: Record<string, unknown>;
    session?: { accountId?: string; uid?: string };
    grantId?: string;
    returnTo: string;
  }

  /** What an interaction resolved to (`interactionResult`). */
  export interface InteractionResults {
    login?: { accountId: string };
    consent?: { grantId?: string };
    error?: string;
    error_description?: string;
  }

  /** One condition of an interaction prompt; `check` answers true to ask the user. */
  export interface Check {
    readonly reason: string;
  }

  export interface Prompt {
    readonly name: string;
    readonly checks: Check[];
  }

  export interface PromptList extends Array<Prompt> {
    get(name: string): Prompt | undefined;
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

  /** Koa context extended by oidc-provider; only the parts this service reads. */
  export interface KoaContextWithOIDC {
    /** The Node request (its headers: the session cookie, the client IP recorded at mount). */
    req: IncomingMessage;
    oidc: {
      session?: { accountId?: string };
      grant?: Grant;
      result?: InteractionResults;
      client?: Client;
      /** The authorization request's parameters (`resource`: one string or several, RFC 8707). */
      params?: Record<string, unknown>;
    };
    type: string;
    body: unknown;
    set(headers: Record<string, string>): void;
  }

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
    findAccount?: (
      ctx: KoaContextWithOIDC,
      sub: string,
    ) => Promise<{ accountId: string; claims(): Promise<{ sub: string }> } | undefined>;
    interactions?: {
      url: (ctx: KoaContextWithOIDC, interaction: { uid: string }) => Promise<string>;
      policy: PromptList;
    };
    issueRefreshToken?: (ctx: KoaContextWithOIDC, client: Client) => Promise<boolean>;
    expiresWithSession?: () => Promise<boolean>;
    extraClientMetadata?: {
      properties: string[];
      validator: (ctx: KoaContextWithOIDC, key: string, value: unknown, metadata: ClientMetadata) => void;
    };
    /** Outbound HTTP of the provider (client metadata documents), with oidc-provider's `fetch` signature. */
    fetch?: (url: string, options: RequestInit) => Promise<Response>;
    fetchResponseBodyLimits?: Record<string, number>;
    renderError?: (ctx: KoaContextWithOIDC, out: Record<string, string>, error: Error) => Promise<void>;
    features?: Record<string, Record<string, unknown>>;
  }

  export class Provider {
    constructor(issuer: string, configuration?: Configuration);
    readonly issuer: string;
    /** Koa's `app.proxy`: trust X-Forwarded-Proto / X-Forwarded-Host. */
    proxy: boolean;
    readonly Client: { prototype: Client; find(id: string): Promise<Client | undefined> };
    readonly Grant: {
      new (properties: { accountId: string; clientId: string }): Grant;
      find(id: string): Promise<Grant | undefined>;
    };
    /** The interaction of the request's `_interaction` cookie. @throws errors.SessionNotFound */
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    /** Records the interaction's outcome. @returns the URL to send the browser back to. */
    interactionResult(
      req: IncomingMessage,
      res: ServerResponse,
      result: InteractionResults,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<string>;
    /** The Koa request handler. */
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
    on(event: 'server_error', listener: (ctx: KoaContextWithOIDC, error: Error) => void): this;
  }

  export const errors: {
    InvalidTarget: new (description?: string) => Error;
    InvalidClientMetadata: new (description?: string) => Error;
    InvalidRequest: new (description?: string) => Error;
    SessionNotFound: new (description?: string) => Error;
  };

  export const interactionPolicy: {
    /** `error` is the OAuth error code when prompting is impossible (`prompt=none`). */
    Check: new (
      reason: string,
      description: string,
      error: string,
      check: (ctx: KoaContextWithOIDC) => boolean | Promise<boolean>,
    ) => Check;
    /** oidc-provider's default prompts: login, then consent. */
    base(): PromptList;
  };

  export default Provider;
}
