import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import type { AppConfig } from '@app/platform/config/app-config.js';

/**
 * The CAs sign-in's outbound HTTPS trusts (the identity provider, client metadata documents):
 * Node's bundled roots plus AUTH_CA_FILE when set (a private CA, or the tests' own).
 * @returns undefined when AUTH_CA_FILE is unset: the defaults apply.
 * @throws Error when AUTH_CA_FILE cannot be read (at boot).
 */
export function authCaCertificates(config: Pick<AppConfig, 'AUTH_CA_FILE'>): string[] | undefined {
  if (!config.AUTH_CA_FILE) return undefined;
  return [...rootCertificates, readFileSync(config.AUTH_CA_FILE, 'utf8')];
}
