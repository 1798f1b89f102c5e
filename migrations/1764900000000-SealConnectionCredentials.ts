import type { MigrationInterface, QueryRunner } from 'typeorm';
import type { KeyRing } from '@libs/crypto/key-ring.js';
import { SecretCipher } from '@libs/crypto/secret-cipher.js';

/** AAD of a connection's client secret before this migration (`connection:<id>:client_secret`). */
const secretAad = (id: string) => `connection:${id}:client_secret`;
/** AAD of a connection's credentials blob from this migration on (ConnectionsService). */
const credentialsAad = (id: string) => `connection:${id}:credentials`;

interface LegacyRow {
  id: string;
  client_id: string;
  client_secret_enc: string;
}

interface SealedRow {
  id: string;
  credentials_enc: string;
}

/**
 * One sealed credentials blob per connection (docs/architecture.md "Adding a provider"): a provider declares
 * its credential fields in its descriptor, so a connection keeps them all in `credentials_enc` (the
 * JSON object of every field, AES-256-GCM under the master key ring, bound to the row) and the
 * ones that are not secret in `public_credentials` too, to show them without decrypting. An Okta
 * connection's `client_id` and `client_secret` move there. Needs the master key ring (the
 * service passes it), since every secret is decrypted and sealed again; a ciphertext that does
 * not open stops the migration, and its transaction leaves the table as it was.
 */
export function sealConnectionCredentials(keyRing: KeyRing): new () => MigrationInterface {
  const cipher = new SecretCipher(keyRing);
  return class SealConnectionCredentials1764900000000 implements MigrationInterface {
    async up(db: QueryRunner): Promise<void> {
      await db.query(`
        ALTER TABLE connections ADD COLUMN credentials_enc text, ADD COLUMN public_credentials jsonb
      `);
      const rows = (await db.query(
        'SELECT id, client_id, client_secret_enc FROM connections',
      )) as LegacyRow[];
      for (const row of rows) {
        const credentials = {
          client_id: row.client_id,
          client_secret: cipher.decryptSecret(row.client_secret_enc, secretAad(row.id)),
        };
        await db.query('UPDATE connections SET credentials_enc = $1, public_credentials = $2 WHERE id = $3', [
          cipher.encryptSecret(JSON.stringify(credentials), credentialsAad(row.id)),
          JSON.stringify({ client_id: row.client_id }),
          row.id,
        ]);
      }
      await db.query(`
        ALTER TABLE connections
          ALTER COLUMN credentials_enc SET NOT NULL,
          ALTER COLUMN public_credentials SET NOT NULL,
          DROP COLUMN client_id,
          DROP COLUMN client_secret_enc
      `);
    }

    async down(db: QueryRunner): Promise<void> {
      await db.query('ALTER TABLE connections ADD COLUMN client_id text, ADD COLUMN client_secret_enc text');
      const rows = (await db.query('SELECT id, credentials_enc FROM connections')) as SealedRow[];
      for (const row of rows) {
        const credentials = JSON.parse(cipher.decryptSecret(row.credentials_enc, credentialsAad(row.id))) as {
          client_id: string;
          client_secret: string;
        };
        await db.query('UPDATE connections SET client_id = $1, client_secret_enc = $2 WHERE id = $3', [
          credentials.client_id,
          cipher.encryptSecret(credentials.client_secret, secretAad(row.id)),
          row.id,
        ]);
      }
      await db.query(`
        ALTER TABLE connections
          ALTER COLUMN client_id SET NOT NULL,
          ALTER COLUMN client_secret_enc SET NOT NULL,
          DROP COLUMN credentials_enc,
          DROP COLUMN public_credentials
      `);
    }
  };
}
