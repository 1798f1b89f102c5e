import type { IncomingMessage, ServerResponse } from 'node:http';
import { Inject, Injectable, type INestApplication, Logger } from '@nestjs/common';
import type { Request } from 'express';
import Provider, {
  type Client,
  errors,
  type InteractionDetails,
  type InteractionResults,
  type KoaContextWithOIDC,
} from 'oidc-provider';
import type { AppConfig } from '@app/platform/config/app-config.js';
import { APP_CONFIG } from '@app/platform/config/config.module.js';
import { resolveClientIp } from '@app/common/rate-limit/client-ip.js';
import { SessionsService } from '@app/identity/sessions/sessions.service.js';
import { authCaCertificates } from '@app/identity/sign-in/auth-ca.js';
import { clientSecretMatches } from '@app/identity/teams/client-secret.js';
import { TeamsService } from '@app/identity/teams/teams.service.js';
import { formatAccountSubject, parseAccountSubject } from './account-subject.js';
import { isIntegrationClientId } from './client-policy.js';
import { ClientStore } from './client-store.js';
import { IntegrationClientAdapter } from './integration-client.adapter.js';
import { createMetadataDocumentFetch } from './metadata-document-fetch.js';
import { OAuthClientRateLimit } from './oauth-client-rate-limit.js';
import {
  buildOidcConfiguration,
  OAUTH_PATH_PREFIX,
  protectedResources,
  requestedResources,
} from './oidc-configuration.js';
import { OidcPayloadAdapter } from './oidc-payload.adapter.js';
import { OidcPayloadsRepository } from './oidc-payloads.repository.js';
import { SIGNING_KEYS, type SigningKeySet } from './signing-keys.service.js';
import { StorableTextAdapter } from './storable-text.adapter.js';

/** oidc-provider's discovery document, fixed by the library. */
const OPENID_CONFIGURATION_PATH = '/.well-known/openid-configuration';
/** RFC 8414 §3: for an issuer without a path, the metadata sits right under the origin. */
const AUTHORIZATION_SERVER_METADATA_PATH = '/.well-known/oauth-authorization-server';
/** Dynamic Client Registration endpoint (RFC 7591), see ROUTES. */
const REGISTRATION_PATH = '/oauth/register';

/**
 * The service's own OAuth 2.0 authorization server (spec "Authentication"): oidc-provider with
 * issuer `BASE_URL`, endpoints under /oauth/, metadata at /.well-known/oauth-authorization-server
 * (RFC 8414) and /.well-known/openid-configuration. What it allows is in oidc-configuration.ts;
 * every artifact lives in PostgreSQL (`oidc_payloads`), so replicas share it. Its interaction
 * pages (sign-in, consent) are served by the InteractionController through the methods below.
 */
@Injectable()
export class AuthorizationServer {
  private readonly logger = new Logger(AuthorizationServer.name);
  private readonly provider: Provider;
  /** Client IP of each request handed to oidc-provider, read by the metadata document budget. */
  private readonly clientIps = new WeakMap<IncomingMessage, string>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SIGNING_KEYS) keys: SigningKeySet,
    teams: TeamsService,
    payloads: OidcPayloadsRepository,
    sessions: SessionsService,
    private readonly clientBudget: OAuthClientRateLimit,
  ) {
    const clients = new ClientStore(
      new IntegrationClientAdapter(teams),
      new OidcPayloadAdapter('Client', payloads),
    );
    const adapter = (model: string) =>
      new StorableTextAdapter(model === 'Client' ? clients : new OidcPayloadAdapter(model, payloads));
    this.provider = new Provider(
      config.BASE_URL,
      buildOidcConfiguration({
        config,
        keys,
        adapter,
        hooks: {
          accountExists: async (accountId) => {
            const account = parseAccountSubject(accountId);
            return (
              account !== null && (await teams.resolveMemberActor(account.userId, account.teamId)) !== null
            );
          },
          sessionAccount: async (ctx) => {
            const identity = await sessions.resolve(ctx.req.headers.cookie);
            return identity ? formatAccountSubject(identity) : undefined;
          },
          allowMetadataFetch: async (ctx: KoaContextWithOIDC) =>
            (await this.clientBudget.take(this.clientIp(ctx.req))) === 0,
          metadataFetch: createMetadataDocumentFetch({
            allowLoopback: config.OAUTH_CIMD_ALLOW_LOOPBACK,
            ca: authCaCertificates(config),
          }),
        },
      }),
    );

    // Hashed client secrets (RFC 6819 §5.1.4.1.3). oidc-provider compares a presented secret
    // with the plaintext `client_secret` of the client's metadata, which we do not have. Its
    // author's advice for one-way hashed secrets (panva/node-oidc-provider#104, #631) is to
    // replace this prototype method and give up the features keyed by the plaintext secret
    // (HS* signatures, symmetric encryption), which buildOidcConfiguration disables.
    // client_auth.js awaits the result, so the check can go to the database. Integration
    // clients' hashes are in `oauth_clients`; a registered client's is its stored metadata.
    this.provider.Client.prototype.compareClientSecret = function (this: Client, actual: string) {
      if (isIntegrationClientId(this.clientId)) return teams.verifyClientSecret(this.clientId, actual);
      return clientSecretMatches(actual, this.clientSecret ?? '');
    };
    // Koa must see BASE_URL's scheme and host, not the socket's: behind a TLS-terminating proxy
    // the socket is plain http, which would make discovery advertise http:// endpoints and
    // refuse Secure cookies. mount() sets the forwarded headers from BASE_URL itself, so trusting
    // them cannot be abused by a client, and https stays https.
    this.provider.proxy = true;
    this.provider.on('server_error', (_ctx, error) =>
      this.logger.error(`oidc-provider: ${error.message}`, error.stack),
    );
    if (config.NODE_ENV === 'production' && new URL(config.BASE_URL).protocol !== 'https:') {
      this.logger.warn(
        `BASE_URL ${config.BASE_URL} is not https: tokens and client secrets cross the network in clear`,
      );
    }
  }

  /**
   * Hands the authorization server's own paths to oidc-provider, ahead of Nest's body parsers
   * (it parses its own bodies); every other request goes on to the API. Registrations beyond
   * the caller's budget (OAuthClientRateLimit) get 429 with `Retry-After`.
   */
  mount(app: INestApplication): void {
    const handle = this.provider.callback();
    const origin = new URL(this.config.BASE_URL);
    app.use(async (req: Request, res: ServerResponse, next: (error?: unknown) => void) => {
      const url = req.url ?? '/';
      const path = url.split('?', 1)[0];
      if (path === AUTHORIZATION_SERVER_METADATA_PATH) {
        req.url = OPENID_CONFIGURATION_PATH + url.slice(path.length);
      } else if (!path.startsWith(OAUTH_PATH_PREFIX) && path !== OPENID_CONFIGURATION_PATH) {
        next();
        return;
      }
      // Read before X-Forwarded-For is dropped below; trusted only behind TRUST_PROXY_HOPS proxies.
      const ip = resolveClientIp(
        req.socket.remoteAddress,
        req.headers['x-forwarded-for'],
        this.config.TRUST_PROXY_HOPS,
      );
      this.clientIps.set(req, ip);
      if (req.method === 'POST' && path === REGISTRATION_PATH) {
        const wait = await this.clientBudget.take(ip);
        if (wait > 0) {
          tooManyRegistrations(res, wait);
          return;
        }
      }
      req.headers['x-forwarded-proto'] = origin.protocol.slice(0, -1);
      req.headers['x-forwarded-host'] = origin.host;
      // Koa trusts X-Forwarded-For once `proxy` is on; the address was taken above already.
      delete req.headers['x-forwarded-for'];
      handle(req, res).catch(next);
    });
  }

  /**
   * The authorization request behind an interaction page, from its `_interaction` cookie.
   * @returns null when the cookie is missing or the interaction is unknown or expired.
   */
  async interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails | null> {
    try {
      return await this.provider.interactionDetails(req, res);
    } catch (error) {
      if (error instanceof errors.SessionNotFound) return null;
      throw error;
    }
  }

  /** Records the interaction's outcome. @returns where to send the browser (the authorization endpoint, to resume). */
  finishInteraction(req: IncomingMessage, res: ServerResponse, result: InteractionResults): Promise<string> {
    return this.provider.interactionResult(req, res, result, { mergeWithLastSubmission: true });
  }

  /**
   * Records the account's consent for the client: on each resource the request named (the API
   * when none, requestedResources) that resource's scope, and the scopes oidc-provider counts as
   * its own that the request named (`api` and `mcp` are both), added to the interaction's
   * existing grant or to a new one.
   * @returns the grant id.
   */
  async grantApiAccess(details: InteractionDetails, accountId: string): Promise<string> {
    const existing = details.grantId ? await this.provider.Grant.find(details.grantId) : undefined;
    const grant =
      existing ?? new this.provider.Grant({ accountId, clientId: String(details.params.client_id) });
    const missingScopes = details.prompt.details.missingOIDCScope;
    if (Array.isArray(missingScopes)) grant.addOIDCScope(missingScopes.join(' '));
    const servers = protectedResources(this.config);
    for (const resource of requestedResources(this.config, details.params.resource)) {
      const server = servers.get(resource);
      if (server) grant.addResourceScope(resource, server.scope);
    }
    return grant.save();
  }

  /** The client an authorization request names (its metadata document is cached by now). */
  findClient(clientId: string): Promise<Client | undefined> {
    return this.provider.Client.find(clientId);
  }

  private clientIp(req: IncomingMessage): string {
    return this.clientIps.get(req) ?? req.socket.remoteAddress ?? 'unknown';
  }
}

function tooManyRegistrations(res: ServerResponse, waitSeconds: number): void {
  res.statusCode = 429;
  res.setHeader('Retry-After', String(waitSeconds));
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.end(
    JSON.stringify({
      error: 'rate_limited',
      error_description: 'Too many client registrations from this address; try again later',
    }),
  );
}
