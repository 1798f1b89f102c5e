import type { PackSigner } from './pack-signer.js';
import { auditPackReadme } from './templates/audit-pack-readme.js';
import type { PackedFile, PackFile } from '@app/common/downloads/zip-pack.js';

/** What the closing files of a pack name. */
export interface PackFacts {
  teamId: string;
  /** the team as the README names it, read when the README is written */
  team(): Promise<string>;
  period: { from: Date; to: Date };
  connectionIds: string[];
  generatedAt: Date;
  /** where the service publishes the public key of a key id */
  keyUrl(keyId: string): string;
}

/**
 * The files that close an audit pack (docs/export.md), after its records:
 * `README.txt`, `signing-key.pem`, then `SHA256SUMS` (every file before it, as sha256sum writes
 * them) and `MANIFEST.json` (every file before it with its SHA-256 and size, and the pack's
 * facts), each followed by its detached Ed25519 signature (`.sig`, the raw 64 bytes of RFC 8032)
 * of its exact bytes, which `openssl pkeyutl -verify -rawin` checks.
 */
export function signedClosingFiles(signer: PackSigner, facts: PackFacts): PackFile[] {
  const key = signer.publicKey();
  const keyUrl = facts.keyUrl(key.keyId);
  const period = { from: facts.period.from.toISOString(), to: facts.period.to.toISOString() };
  const written = new Map<string, Buffer>();
  const file = (path: string, make: (before: readonly PackedFile[]) => Promise<string>): PackFile => ({
    path,
    content: async function* (before) {
      const bytes = Buffer.from(await make(before), 'utf8');
      written.set(path, bytes);
      yield bytes;
    },
  });
  const signature = (path: string): PackFile => ({
    path: `${path}.sig`,
    content: async function* () {
      yield signer.sign(written.get(path)!);
    },
  });
  const manifest = (before: readonly PackedFile[]) => ({
    format: 'idp-backup-audit-pack',
    version: 1,
    team_id: facts.teamId,
    generated_at: facts.generatedAt.toISOString(),
    period,
    connection_ids: facts.connectionIds,
    signing_key: { algorithm: 'Ed25519', key_id: key.keyId, public_key_sha256: key.sha256, url: keyUrl },
    files: before.map(({ path, sha256, size }) => ({ path, sha256, size })),
  });
  return [
    file('README.txt', async () =>
      auditPackReadme({
        team: await facts.team(),
        ...period,
        generatedAt: facts.generatedAt.toISOString(),
        keyUrl,
        keyId: key.keyId,
        keySha256: key.sha256,
      }),
    ),
    file('signing-key.pem', async () => key.pem),
    file('SHA256SUMS', async (before) =>
      before.map((packed) => `${packed.sha256}  ${packed.path}\n`).join(''),
    ),
    signature('SHA256SUMS'),
    file('MANIFEST.json', async (before) => `${JSON.stringify(manifest(before), null, 2)}\n`),
    signature('MANIFEST.json'),
  ];
}
