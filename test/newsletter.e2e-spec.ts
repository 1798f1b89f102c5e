import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { type ParsedMailbox, type ReceivedMail, startParsedMailbox } from './support/parsed-mailbox.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * The public newsletter (docs/security.md, spec "Newsletter"): double opt-in, no enumeration, a budget
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

  /** Waits until the queued subscriptions have been worked (they run after the answer). */
  const subscriptionsWorked = async (): Promise<void> => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const { rows } = await db.query(
        "SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'newsletter-confirmation' AND state IN ('created', 'retry', 'active')",
      );
      if (rows[0].n === 0) return;
      if (Date.now() > deadline) throw new Error('newsletter-confirmation jobs still queued');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const pathOf = (url: URL) => `${url.pathname}${url.search}`;
  /** Follows a confirmation link as a person does: the GET changes nothing, the page's button posts. */
  const confirmByPage = async (confirmUrl: URL): Promise<void> => {
    const email = await db.query(
      'SELECT s.email, s.confirmed_at FROM newsletter_subscribers s JOIN newsletter_tokens t ON t.subscriber_id = s.id WHERE t.token_hash = encode(sha256($1::bytea), $2)',
      [confirmUrl.searchParams.get('token'), 'hex'],
    );
    const before = email.rows[0] ? await subscriber(email.rows[0].email as string) : undefined;
    const opened = await ctx.http.get(pathOf(confirmUrl));
    expect(opened.status).toBe(302);
    expect(opened.headers.location).toBe(`/subscribed?token=${confirmUrl.searchParams.get('token')}`);
    if (before) expect(await subscriber(email.rows[0].email as string)).toEqual(before);
    const page = await ctx.http.get(opened.headers.location as string).expect(200);
    expect(page.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    const action = /<form method="post" action="([^"]+)"/.exec(page.text)?.[1]?.replace(/&amp;/g, '&');
    expect(action).toBe(pathOf(confirmUrl));
    const posted = await ctx.http.post(action!).type('form').send('');
    expect(posted.status).toBe(302);
    expect(posted.headers.location).toBe('/subscribed');
  };

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

    // Opening the link (as a mail scanner does) changes nothing: it leads to a page whose button posts.
    await confirmByPage(link(mail, '/api/newsletter/confirm'));
    expect((await subscriber(email)).confirmed_at).not.toBeNull();

    // Tokens are kept hashed only.
    const { rows } = await db.query('SELECT token_hash FROM newsletter_tokens');
    const token = unsubscribeUrl.searchParams.get('token')!;
    expect(rows.map((r) => r.token_hash)).not.toContain(token);

    // Known now: the same answer, and no new mail.
    await ctx.http.post('/api/newsletter/subscribe').send({ email }).expect(200, { ok: true });
    await subscriptionsWorked();

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
      const again = await ctx.http.post(path).type('form').send('List-Unsubscribe=One-Click');
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

  it('opens the unsubscribe link to a page whose button unsubscribes; the GET alone changes nothing', async () => {
    const email = 'scanned@example.com';
    await ctx.http.post('/api/newsletter/subscribe').send({ email }).expect(200, { ok: true });
    const [mail] = await mailbox.waitFor(to(email), 1);
    await confirmByPage(link(mail, '/api/newsletter/confirm'));
    const unsubscribeUrl = link(mail, '/api/newsletter/unsubscribe');
    const opened = await ctx.http.get(pathOf(unsubscribeUrl));
    expect(opened.status).toBe(302);
    expect(opened.headers.location).toBe(`/unsubscribed?token=${unsubscribeUrl.searchParams.get('token')}`);
    expect((await subscriber(email)).unsubscribed_at).toBeNull();
    const page = await ctx.http.get(opened.headers.location as string).expect(200);
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.text).toContain('<input type="hidden" name="List-Unsubscribe" value="One-Click" />');
    const action = /<form method="post" action="([^"]+)"/.exec(page.text)?.[1]?.replace(/&amp;/g, '&');
    expect(action).toBe(pathOf(unsubscribeUrl));
    await ctx.http.post(action!).type('form').send('List-Unsubscribe=One-Click').expect(302);
    expect((await subscriber(email)).unsubscribed_at).not.toBeNull();
    expect((await ctx.http.get('/unsubscribed').expect(200)).text).toContain('You will receive no more');
  });

  it("voids a round's confirmation link at the next round and at unsubscribe, and expires it after 48 hours", async () => {
    const email = 'rounds@example.com';
    const confirmLinks = async (count: number) =>
      (await mailbox.waitFor(to(email), count)).map((mail) => link(mail, '/api/newsletter/confirm'));
    const post = (url: URL) => ctx.http.post(pathOf(url)).type('form').send('');

    // Round 1, then round 2: only round 2's link confirms.
    await ctx.http.post('/api/newsletter/subscribe').send({ email }).expect(200);
    const [c1] = await confirmLinks(1);
    await ctx.http.post('/api/newsletter/subscribe').send({ email }).expect(200);
    const [, c2] = await confirmLinks(2);
    await post(c1).expect(302);
    expect((await subscriber(email)).confirmed_at).toBeNull();
    await post(c2).expect(302);
    expect((await subscriber(email)).confirmed_at).not.toBeNull();

    // Unsubscribed, then someone asks again (round 3): neither round 1's link nor round 2's
    // subscribes the address; round 3's does, but not once 48 hours old.
    const [, mail2] = await mailbox.waitFor(to(email), 2);
    await ctx.http
      .post(pathOf(link(mail2, '/api/newsletter/unsubscribe')))
      .type('form')
      .send('List-Unsubscribe=One-Click');
    await ctx.http.post('/api/newsletter/subscribe').send({ email }).expect(200);
    const [, , c3] = await confirmLinks(3);
    for (const old of [c1, c2]) await post(old).expect(302);
    expect(await subscriber(email)).toMatchObject({ confirmed_at: null, unsubscribed_at: null });
    await db.query(
      "UPDATE newsletter_tokens SET created_at = now() - interval '48 hours 1 minute' WHERE token_hash = encode(sha256($1::bytea), 'hex')",
      [c3.searchParams.get('token')],
    );
    await post(c3).expect(302);
    expect((await subscriber(email)).confirmed_at).toBeNull();
  });

  it('voids the confirmation link of a subscriber who unsubscribes before confirming', async () => {
    const email = 'changed-mind@example.com';
    await ctx.http.post('/api/newsletter/subscribe').send({ email }).expect(200);
    const [mail] = await mailbox.waitFor(to(email), 1);
    await ctx.http
      .post(pathOf(link(mail, '/api/newsletter/unsubscribe')))
      .type('form')
      .send('List-Unsubscribe=One-Click')
      .expect(302);
    await ctx.http
      .post(pathOf(link(mail, '/api/newsletter/confirm')))
      .type('form')
      .send('')
      .expect(302);
    expect((await subscriber(email)).confirmed_at).toBeNull();
  });

  it('answers a subscribed address and a new one alike, before any mail is sent', async () => {
    const known = 'known@example.com';
    await ctx.http.post('/api/newsletter/subscribe').send({ email: known }).expect(200);
    await confirmByPage(link((await mailbox.waitFor(to(known), 1))[0], '/api/newsletter/confirm'));
    const queued = async () =>
      Number(
        (await db.query("SELECT count(*) AS n FROM pgboss.job WHERE name = 'newsletter-confirmation'"))
          .rows[0].n,
      );

    // The SMTP relay stalls: an answer that waited for the mail would wait for it too.
    const release = mailbox.hold();
    try {
      for (const email of [known, 'brand-new@example.com']) {
        const before = await queued();
        const started = Date.now();
        await ctx.http
          .post('/api/newsletter/subscribe')
          .timeout(5_000)
          .send({ email })
          .expect(200, { ok: true });
        expect(Date.now() - started).toBeLessThan(2_000);
        expect(await queued()).toBe(before + 1); // the same work: one job, whatever the address
      }
    } finally {
      release();
    }
    await mailbox.waitFor(to('brand-new@example.com'), 1);
    expect(mailbox.messages.filter(to(known))).toHaveLength(1);
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
