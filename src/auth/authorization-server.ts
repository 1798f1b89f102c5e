import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  Inject,
  Injectable,
  type INestApplication,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import Provider, { type Client } from 'oidc-provider';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { TeamsService } from '../teams/teams.service.js';
import { IntegrationClientAdapter } from './integration-client.adapter.js';
import { buildOidcConfiguration, OAUTH_PATH_PREFIX } from './oidc-configuration.js';
import { OidcPayloadAdapter } from './oidc-payload.adapter.js';
import { OidcPayloadsRepository } from './oidc-payloads.repository.js';
import { SIGNING_KEYS, type SigningKeySet } from './signing-keys.service.js';

/** oidc-provider's discovery document, fixed by the library. */
const OPENID_CONFIGURATION_PATH = '/.well-known/openid-configuration';
/** RFC 8414 §3: for an issuer without a path, the metadata sits right under the origin. */
const AUTHORIZATION_SERVER_METADATA_PATH = '/.well-known/oauth-authorization-server';
/** How often expired rows of `oidc_payloads` are deleted, ms. */
const PURGE_INTERVAL_MS = 15 * 60 * 1000;

/**
 * The service's own OAuth 2.0 authorization server (spec "Authentication"): oidc-provider with
 * issuer `BASE_URL`, endpoints under /oauth/, metadata at /.well-known/oauth-authorization-server
 * (RFC 8414) and /.well-known/openid-configuration. Clients are the teams' integration clients;
 * every other artifact lives in PostgreSQL (`oidc_payloads`).
 */
@Injectable()
export class AuthorizationServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(AuthorizationServer.name);
  private readonly provider: Provider;
  private purgeTimer?: NodeJS.Timeout;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SIGNING_KEYS) keys: SigningKeySet,
    teams: TeamsService,
    private readonly payloads: OidcPayloadsRepository,
  ) {
    const clients = new IntegrationClientAdapter(teams);
    const adapter = (model: string) =>
      model === 'Client' ? clients : new OidcPayloadAdapter(model, payloads);
    this.provider = new Provider(config.BASE_URL, buildOidcConfiguration({ config, keys, adapter }));

    // Hashed client secrets (RFC 6819 §5.1.4.1.3). oidc-provider compares a presented secret
    // with the plaintext `client_secret` of the client's metadata, which we do not have. Its
    // author's advice for one-way hashed secrets (panva/node-oidc-provider#104, #631) is to
    // replace this prototype method and give up the features keyed by the plaintext secret
    // (HS* signatures, symmetric encryption), which buildOidcConfiguration disables.
    // client_auth.js awaits the result, so the check can go to the database.
    this.provider.Client.prototype.compareClientSecret = function (this: Client, actual: string) {
      return teams.verifyClientSecret(this.clientId, actual);
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
   * (it parses its own bodies); every other request goes on to the API.
   */
  mount(app: INestApplication): void {
    const handle = this.provider.callback();
    const origin = new URL(this.config.BASE_URL);
    app.use((req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => {
      const url = req.url ?? '/';
      const path = url.split('?', 1)[0];
      if (path === AUTHORIZATION_SERVER_METADATA_PATH) {
        req.url = OPENID_CONFIGURATION_PATH + url.slice(path.length);
      } else if (!path.startsWith(OAUTH_PATH_PREFIX) && path !== OPENID_CONFIGURATION_PATH) {
        next();
        return;
      }
      req.headers['x-forwarded-proto'] = origin.protocol.slice(0, -1);
      req.headers['x-forwarded-host'] = origin.host;
      // Express does not trust proxies (create-app.ts); neither should Koa for the client's IP.
      delete req.headers['x-forwarded-for'];
      handle(req, res).catch(next);
    });
  }

  /** Starts the periodic purge of expired artifacts; reads ignore them already, this reclaims space. */
  onApplicationBootstrap(): void {
    this.purgeTimer = setInterval(() => void this.purgeExpired(), PURGE_INTERVAL_MS).unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.purgeTimer);
  }

  private async purgeExpired(): Promise<void> {
    try {
      const purged = await this.payloads.purgeExpired();
      if (purged > 0) this.logger.debug(`Purged ${purged} expired OAuth artifacts`);
    } catch (error) {
      this.logger.warn(`Purging expired OAuth artifacts failed: ${(error as Error).message}`);
    }
  }
}
