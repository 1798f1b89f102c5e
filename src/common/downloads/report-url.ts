import { createHmac, timingSafeEqual } from 'node:crypto';
import type { KeyRing } from '@libs/crypto/key-ring.js';
import { ForbiddenError } from '@app/common/errors.js';

/** HKDF label of the URL-signing key (KeyRing.deriveKey): valid for nothing else. */
const PURPOSE = 'report-url';

/** The query of a signed report URL. */
export interface SignedReportQuery {
  team?: string;
  expires?: string;
  kid?: string;
  sig?: string;
}

/** The object key a team's report is stored under (the team's prefix, so account deletion takes it). */
export function reportObjectKey(teamId: string, reportId: string): string {
  return `teams/${teamId}/reports/${reportId}.pdf`;
}

/**
 * Signed download URLs of stored reports (docs/export.md): HMAC-SHA256 over the report, its team and
 * the expiry, under a key derived from the master key `kid` names (so a key rotation keeps URLs
 * made before it working until they expire). Anyone holding the URL can download until then; no
 * bearer token is needed.
 */
export class ReportUrlSigner {
  /**
   * @param route where the signed files are downloaded and what they are (in the MAC, so a
   *   report's signature never opens a restore package): reports by default
   */
  constructor(
    private readonly keyRing: KeyRing,
    private readonly baseUrl: string,
    private readonly ttlSeconds: number,
    private readonly route: { path: string; label: string } = {
      path: '/api/export/reports',
      label: 'report',
    },
  ) {}

  /** @returns the URL and when it stops working (ISO 8601) */
  sign(teamId: string, reportId: string, now = new Date()): { url: string; expiresAt: string } {
    const expires = Math.floor(now.getTime() / 1000) + this.ttlSeconds;
    const kid = this.keyRing.activeKid;
    const query = new URLSearchParams({
      team: teamId,
      expires: String(expires),
      kid,
      sig: this.mac(kid, teamId, reportId, expires).toString('base64url'),
    });
    return {
      url: `${this.baseUrl}${this.route.path}/${reportId}?${query}`,
      expiresAt: new Date(expires * 1000).toISOString(),
    };
  }

  /**
   * @returns the team whose report the URL names
   * @throws ForbiddenError (403, and nothing more said) for an expired, altered or other report's signature
   */
  verify(reportId: string, query: SignedReportQuery, now = new Date()): string {
    const refused = new ForbiddenError('This download link is invalid or has expired.');
    const { team, expires, kid, sig } = query;
    if (!team || !expires || !kid || !sig || !/^\d{1,12}$/.test(expires) || !this.keyRing.has(kid))
      throw refused;
    if (Number(expires) * 1000 <= now.getTime()) throw refused;
    const expected = this.mac(kid, team, reportId, Number(expires));
    const given = Buffer.from(sig, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refused;
    return team;
  }

  private mac(kid: string, teamId: string, reportId: string, expires: number): Buffer {
    // A JSON array keeps the fields apart whatever they hold.
    return createHmac('sha256', this.keyRing.deriveKey(PURPOSE, kid))
      .update(JSON.stringify([this.route.label, teamId, reportId, expires]))
      .digest();
  }
}
