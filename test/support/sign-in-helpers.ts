import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { Browser, BrowserResponse } from './browser.js';
import type { TestApp } from './test-app.js';

/** A fresh address of the tests' domain, in mixed case like people type them. */
export function newAddress(prefix = 'person'): string {
  return `${prefix}-${randomBytes(4).toString('hex')}@Example.com`;
}

/** The six-digit code of the latest sign-in e-mail to `email`, read from the outbox (no SMTP_URL). */
export async function latestCode(ctx: TestApp, email: string): Promise<string> {
  const rows: Array<{ body: string }> = await ctx.app
    .get(DataSource)
    .query(
      'SELECT body FROM outbox_emails WHERE lower(recipient) = lower($1) ORDER BY created_at DESC LIMIT 1',
      [email],
    );
  const code = /\b(\d{6})\b/.exec(rows[0]?.body ?? '')?.[1];
  if (!code) throw new Error(`No sign-in e-mail to ${email} in the outbox`);
  return code;
}

/**
 * Signs `email` in through the JSON endpoints (send-code, then verify-code with the code
 * `readCode` finds: by default the outbox's, for an app without SMTP_URL).
 */
export async function signInWithCode(
  ctx: TestApp,
  browser: Browser,
  email: string,
  readCode: (email: string) => Promise<string> = (to) => latestCode(ctx, to),
): Promise<BrowserResponse> {
  const sent = await browser.postJson(`${ctx.baseUrl}/api/auth/send-code`, { email });
  if (sent.status !== 200) throw new Error(`send-code answered ${sent.status}: ${sent.text}`);
  return browser.postJson(`${ctx.baseUrl}/api/auth/verify-code`, { email, code: await readCode(email) });
}

/** The attributes of a `Set-Cookie` value: name, value, and each attribute lower-cased (flags map to true). */
export function parseSetCookie(header: string): {
  name: string;
  value: string;
  attributes: Record<string, string | true>;
} {
  const [pair, ...rest] = header.split(';').map((part) => part.trim());
  const separator = pair.indexOf('=');
  const attributes: Record<string, string | true> = {};
  for (const item of rest) {
    const equals = item.indexOf('=');
    if (equals === -1) attributes[item.toLowerCase()] = true;
    else attributes[item.slice(0, equals).toLowerCase()] = item.slice(equals + 1);
  }
  return { name: pair.slice(0, separator), value: pair.slice(separator + 1), attributes };
}
