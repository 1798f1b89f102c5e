import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { type ParsedMailbox, type ReceivedMail, startParsedMailbox } from './support/parsed-mailbox.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * The public newsletter (issue 27, spec "Newsletter"): double opt-in, no enumeration, a budget
 * per address and per IP, one-click unsubscribe (RFC 8058) with hashed single-use tokens.
 */
describe('newsletter (HTTP, real PostgreSQL, SMTP on loopback)', () => {
  let ctx: TestApp;
  let mailbox: ParsedMailbox;
  let db: pg.Client;

  const to = (address: string) => (mail: ReceivedMail) =>
    (mail.parsed.to as { value: Array<{ address?: string }> } | undefined)?.value.some(
      (a) => a.address === address,
    ) ?? false;
  const link = (mail: ReceivedMail, path: string): URL => {
    const found = (mail.parsed.text ?? '').match(new RegExp(`https?://\\S+${path}\\?token=[\\w-]+`));
    if (!found) throw new Error(`no ${path} link`);
    return new URL(found[0]);
  };
  const subscriber = async (email: string) =>
    (
      await db.query('SELECT confirmed_at, unsubscribed_at FROM newsletter_subscribers WHERE email = $1', [
        email,
      ])
    ).rows[0];

  beforeAll(async () => {
    mailbox = await startParsedMailbox();
    ctx = await startTestApp({ SMTP_URL: mailbox.url });
    db = new pg.Client({ connectionString: ctx.databaseUrl });
    await db.connect();
  });

  afterAll(async () => {
    await db?.end();
    await ctx?.close();
    await mailbox?.close();
  });

  it('refuses an invalid address with 400', async () => {
    for (const email of ['not-an-address', '', 'a@', 42]) {
      const response = await ctx.http.post('/api/newsletter/subscribe').send({ email });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'validation_failed', error: expect.any(String) });
    }
  });

  it('confirms by the mailed link, and unsubscribes in one click with a single-use token', async () => {
    const email = 'reader@example.com';
    await ctx.http
      .post('/api/newsletter/subscribe')
      .send({ email: 'Reader@Example.com' })
      .expect(200, { ok: true });
    const [mail] = await mailbox.waitFor(to(email), 1);
    const unsubscribeUrl = link(mail, '/api/newsletter/unsubscribe');
    // The raw headers, as a mail client reads them (mailparser restructures List-Unsubscribe).
    const headers = mail.raw.replace(/\r?\n[ \t]+/g, ' ');
    expect(headers.match(/^List-Unsubscribe: <([^>]+)>\r?$/m)?.[1]).toBe(unsubscribeUrl.href);
    expect(mail.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
    expect(unsubscribeUrl.searchParams.get('token')!.length).toBeGreaterThanOrEqual(22); // 128 bits in base64url
    expect(await subscriber(email)).toMatchObject({ confirmed_at: null });

    const confirmUrl = link(mail, '/api/newsletter/confirm');
    const confirmed = await ctx.http.get(`${confirmUrl.pathname}${confirmUrl.search}`);
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.location).toBe('/subscribed');
    expect((await subscriber(email)).confirmed_at).not.toBeNull();

    // Tokens are kept hashed only.
    const { rows } = await db.query('SELECT token_hash FROM newsletter_tokens');
    const token = unsubscribeUrl.searchParams.get('token')!;
    expect(rows.map((r) => r.token_hash)).not.toContain(token);

    // Known now: the same answer, and no new mail.
    await ctx.http.post('/api/newsletter/subscribe').send({ email }).expect(200, { ok: true });

    const oneClick = await ctx.http
      .post(`${unsubscribeUrl.pathname}${unsubscribeUrl.search}`)
      .type('form')
      .send('List-Unsubscribe=One-Click');
    expect(oneClick.status).toBe(302);
    expect(oneClick.headers.location).toBe('/unsubscribed');
    const gone = await subscriber(email);
    expect(gone.unsubscribed_at).not.toBeNull();

    // A used token, or a bad one, still redirects and changes nothing.
    for (const path of [
      `${unsubscribeUrl.pathname}${unsubscribeUrl.search}`,
      '/api/newsletter/unsubscribe?token=bogus',
      '/api/newsletter/unsubscribe',
    ]) {
      const again = await ctx.http.get(path);
      expect(again.status).toBe(302);
      expect(again.headers.location).toBe('/unsubscribed');
    }
    expect(await subscriber(email)).toEqual(gone);
    expect(mailbox.messages.filter(to(email))).toHaveLength(1);

    const page = await ctx.http.get('/unsubscribed').expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('Unsubscribed');
  });

  it('holds each address to 3 confirmation mails a day, answering the same', async () => {
    const email = 'flooded@example.com';
    for (let request = 0; request < 5; request++) {
      await ctx.http.post('/api/newsletter/subscribe').send({ email }).expect(200, { ok: true });
    }
    await mailbox.waitFor(to(email), 3);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(mailbox.messages.filter(to(email))).toHaveLength(3);
  });
});

describe('newsletter per-IP budget (rate limits on)', () => {
  let ctx: TestApp;

  beforeAll(async () => {
    ctx = await startTestApp({ RATE_LIMITS: 'on' });
  });

  afterAll(async () => {
    await ctx?.close();
  });

  it('answers 429 with Retry-After after 10 subscriptions a minute from one IP', async () => {
    const statuses: number[] = [];
    for (let request = 0; request < 11; request++) {
      const response = await ctx.http
        .post('/api/newsletter/subscribe')
        .send({ email: `ip-${request}@example.com` });
      statuses.push(response.status);
      if (response.status === 429) expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(statuses).toEqual([...Array(10).fill(200), 429]);
  });
});
