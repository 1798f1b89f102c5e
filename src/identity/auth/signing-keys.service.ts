import { Injectable } from '@nestjs/common';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
import { SecurityService } from '@app/platform/security/security.service.js';
import { type NewSigningKey, SigningKeysRepository } from './signing-keys.repository.js';

/** The one JWS algorithm of the authorization server's tokens (ECDSA P-256, RFC 7518 §3.4). */
export const SIGNING_ALG = 'ES256';

/** Injection token of the loaded {@link SigningKeySet}. */
export const SIGNING_KEYS = Symbol('SIGNING_KEYS');

/**
 * The authorization server's keys, newest first: private JWKs for oidc-provider to sign with,
 * public JWKs for the API to verify against (and for `/oauth/jwks`).
 */
export interface SigningKeySet {
  privateJwks: JWK[];
  publicJwks: JWK[];
}

/** Loads the signing keys, creating the first one on first boot (stored encrypted, never in clear). */
@Injectable()
export class SigningKeysService {
  constructor(
    private readonly keys: SigningKeysRepository,
    private readonly security: SecurityService,
  ) {}

  /**
   * The active keys, creating an ES256 key pair when none exists yet (safe when replicas boot
   * together, see the repository).
   * @throws DecryptionError when a stored key cannot be opened with the configured MASTER_KEY.
   */
  async loadOrCreate(): Promise<SigningKeySet> {
    const rows = await this.keys.findActiveOrCreate(() => this.generate());
    const privateJwks = rows.map(
      (row) => JSON.parse(this.security.decryptSecret(row.privateJwkEnc, signingKeyAad(row.kid))) as JWK,
    );
    return { privateJwks, publicJwks: privateJwks.map(toPublicJwk) };
  }

  private async generate(): Promise<NewSigningKey> {
    const { privateKey } = await generateKeyPair(SIGNING_ALG, { extractable: true });
    const jwk = await exportJWK(privateKey);
    const kid = await calculateJwkThumbprint(jwk);
    const privateJwk: JWK = { ...jwk, kid, alg: SIGNING_ALG, use: 'sig' };
    return {
      kid,
      privateJwkEnc: this.security.encryptSecret(JSON.stringify(privateJwk), signingKeyAad(kid)),
    };
  }
}

/** Binds a stored private key to its row, so a ciphertext moved to another kid fails to open (also read by key rotation). */
export function signingKeyAad(kid: string): string {
  return `signing-key:${kid}`;
}

function toPublicJwk({ kty, crv, x, y, kid, alg, use }: JWK): JWK {
  return { kty, crv, x, y, kid, alg, use };
}
