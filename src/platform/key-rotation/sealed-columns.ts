import { credentialsAad } from '@app/connections/connections.service.js';
import { signingKeyAad } from '@app/identity/auth/signing-keys.service.js';
import { signInSecretAad } from '@app/identity/sign-in/sign-in-keys.js';

/** A text column that holds SecretCipher tokens (`v1.<kid>...`), and the aad of each row. */
export interface SealedColumn {
  table: string;
  /** the primary key column, text or uuid */
  key: string;
  column: string;
  aad(key: string): string;
}

/**
 * Every column sealed under the master key ring (DESIGN section 5): connection credentials, the
 * OAuth server's signing keys, the sign-in root secret. A new sealed column is added here, or
 * `keys:rotate` leaves it under the old key (test/key-rotation.e2e-spec.ts looks for such columns).
 */
export const SEALED_COLUMNS: readonly SealedColumn[] = [
  { table: 'connections', key: 'id', column: 'credentials_enc', aad: credentialsAad },
  { table: 'oauth_signing_keys', key: 'kid', column: 'private_jwk_enc', aad: signingKeyAad },
  { table: 'sign_in_secrets', key: 'name', column: 'secret_enc', aad: signInSecretAad },
];
