import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Provider from 'oidc-provider';
import { startLoopbackHttps, type LoopbackHttps } from './loopback-https.js';

/** The person the identity provider signs in next. */
export interface IdpPerson {
  email: string;
  emailVerified?: boolean;
}

/** A loopback HTTPS OpenID Connect provider standing for the customer's Okta or Entra ID. */
export interface TestIdp extends LoopbackHttps {
  clientId: string;
  clientSecret: string;
  /** Settings that make the service sign in through this provider. */
  env: Record<string, string>;
  /** Who the next authorization signs in as (no login page: the provider answers at once). */
  signInAs(person: IdpPerson): void;
}

/**
 * oidc-provider as an upstream identity provider, with one confidential client for the service.
 * Its interaction pages complete themselves: login as the person given to `signInAs`, then
 * consent to `openid email`. The client is a native one so that its loopback redirect URI
 * `http://127.0.0.1/sign-in/oidc/callback` matches the service on any port (RFC 8252 §7.3);
 * the service's own code is the same as against a web client.
 */
export async function startTestIdp(tlsDir?: string): Promise<TestIdp> {
  const clientId = 'idp-backup-test';
  const clientSecret = randomBytes(24).toString('base64url');
  const people = new Map<string, IdpPerson>();
  let next: IdpPerson = { email: 'nobody@example.com' };
  // The issuer URL needs the server's port, and the server's handler needs the provider.
  const late: { provider?: Provider } = {};

  const server = await startLoopbackHttps((req, res) => {
    if ((req.url ?? '').startsWith('/interaction/')) void completeInteraction(req, res);
    else void late.provider!.callback()(req, res);
  }, tlsDir);

  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const provider = new Provider(server.url, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        application_type: 'native',
        redirect_uris: ['http://127.0.0.1/sign-in/oidc/callback'],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        id_token_signed_response_alg: 'ES256',
      },
    ],
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'idp', alg: 'ES256', use: 'sig' }] },
    claims: { email: ['email', 'email_verified'] },
    scopes: ['openid', 'email'],
    cookies: { names: { session: 'idp_session', interaction: 'idp_interaction', resume: 'idp_resume' } },
    interactions: {
      url: async (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
    },
    findAccount: async (_ctx: unknown, sub: string) => {
      const person = people.get(sub);
      if (!person) return undefined;
      return {
        accountId: sub,
        claims: async () => ({ sub, email: person.email, email_verified: person.emailVerified ?? true }),
      };
    },
    features: { devInteractions: { enabled: false } },
    ttl: { AccessToken: 600, IdToken: 600, Grant: 600, Interaction: 600, Session: 600 },
  } as never);
  provider.proxy = false;
  late.provider = provider;

  async function completeInteraction(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name === 'login') {
      const sub = `idp-${next.email}`;
      people.set(sub, next);
      const to = await provider.interactionResult(req, res, { login: { accountId: sub } });
      res.writeHead(303, { location: to }).end();
      return;
    }
    const grant = new provider.Grant({ accountId: details.session!.accountId!, clientId });
    grant.addOIDCScope('openid email');
    const grantId = await grant.save();
    const to = await provider.interactionResult(
      req,
      res,
      { consent: { grantId } },
      { mergeWithLastSubmission: true },
    );
    res.writeHead(303, { location: to }).end();
  }

  return {
    ...server,
    clientId,
    clientSecret,
    env: {
      SIGN_IN_OIDC_ISSUER: server.url,
      SIGN_IN_OIDC_CLIENT_ID: clientId,
      SIGN_IN_OIDC_CLIENT_SECRET: clientSecret,
      SIGN_IN_OIDC_NAME: 'Test IdP',
      AUTH_CA_FILE: server.caCertPath,
    },
    signInAs: (person) => {
      next = person;
    },
  };
}
