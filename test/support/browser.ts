import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { Agent, fetch } from 'undici';

/** One answer, never followed: redirects are returned as they are. */
export interface BrowserResponse {
  url: string;
  status: number;
  headers: Headers;
  /** Raw `Set-Cookie` header values of this answer. */
  setCookies: string[];
  /** The `Location` header resolved against `url`, when there is one. */
  location?: string;
  text: string;
}

interface StoredCookie {
  value: string;
  path: string;
}

/**
 * A small browser for the e2e tests: keeps cookies per origin (scheme, host and port; the
 * `Path` attribute is honoured, `Secure` is not, since the service under test listens on plain
 * http loopback as browsers allow for localhost), follows redirects only when asked, and sends
 * `Origin` on POSTs as a browser does for a form of the target's own origin. It trusts the CA
 * given, for the loopback HTTPS identity provider.
 */
export class Browser {
  private readonly jars = new Map<string, Map<string, StoredCookie>>();
  private readonly dispatcher: Agent;

  constructor(options: { caCertPath?: string } = {}) {
    const ca = options.caCertPath
      ? [...rootCertificates, readFileSync(options.caCertPath, 'utf8')]
      : undefined;
    this.dispatcher = new Agent({ connect: ca ? { ca } : {} });
  }

  /** The value of cookie `name` stored for `origin`, if any. */
  cookie(origin: string, name: string): string | undefined {
    return this.jars.get(new URL(origin).origin)?.get(name)?.value;
  }

  /** Stores a cookie as if the origin had set it (a forged or replayed cookie). */
  setCookie(origin: string, name: string, value: string): void {
    this.jar(origin).set(name, { value, path: '/' });
  }

  forget(origin: string, name: string): void {
    this.jar(origin).delete(name);
  }

  get(url: string, headers: Record<string, string> = {}): Promise<BrowserResponse> {
    return this.send('GET', url, { headers });
  }

  /** A form post (`application/x-www-form-urlencoded`) with `Origin: <url's origin>` unless `origin` says otherwise (null: none). */
  postForm(
    url: string,
    fields: Record<string, string>,
    options: { origin?: string | null } = {},
  ): Promise<BrowserResponse> {
    return this.send('POST', url, {
      body: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...originHeader(url, options.origin) },
    });
  }

  /** A JSON POST as the web application's scripts send it (same `Origin` rule as postForm). */
  postJson(url: string, body: unknown, options: { origin?: string | null } = {}): Promise<BrowserResponse> {
    return this.send('POST', url, {
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...originHeader(url, options.origin) },
    });
  }

  /**
   * GETs `url` and follows redirects while `keepGoing(next)` says so (default: always), at
   * most 20. @returns the last answer: not a redirect, or a redirect to where we stopped.
   */
  async follow(url: string, keepGoing: (next: string) => boolean = () => true): Promise<BrowserResponse> {
    let response = await this.get(url);
    for (let hops = 0; response.location && hops < 20 && keepGoing(response.location); hops += 1) {
      response = await this.get(response.location);
    }
    return response;
  }

  private async send(
    method: string,
    url: string,
    init: { body?: string; headers: Record<string, string> },
  ): Promise<BrowserResponse> {
    const target = new URL(url);
    const cookies = [...this.jar(url)]
      .filter(([, cookie]) => target.pathname.startsWith(cookie.path))
      .map(([name, cookie]) => `${name}=${cookie.value}`);
    const response = await fetch(url, {
      method,
      body: init.body,
      headers: { ...init.headers, ...(cookies.length ? { cookie: cookies.join('; ') } : {}) },
      redirect: 'manual',
      dispatcher: this.dispatcher,
    });
    const setCookies = response.headers.getSetCookie();
    for (const header of setCookies) this.store(url, header);
    const location = response.headers.get('location');
    return {
      url,
      status: response.status,
      headers: response.headers as unknown as Headers,
      setCookies,
      location: location ? new URL(location, url).href : undefined,
      text: await response.text(),
    };
  }

  private store(url: string, header: string): void {
    const [pair, ...attributes] = header.split(';').map((part) => part.trim());
    const separator = pair.indexOf('=');
    const name = pair.slice(0, separator);
    const value = pair.slice(separator + 1);
    const attribute = (key: string) =>
      attributes.find((item) => item.toLowerCase().startsWith(`${key}=`))?.slice(key.length + 1);
    const expired =
      attribute('max-age') === '0' ||
      (attribute('expires') && Date.parse(attribute('expires')!) <= Date.now());
    if (expired) this.jar(url).delete(name);
    else this.jar(url).set(name, { value, path: attribute('path') ?? '/' });
  }

  private jar(url: string): Map<string, StoredCookie> {
    const origin = new URL(url).origin;
    let jar = this.jars.get(origin);
    if (!jar) this.jars.set(origin, (jar = new Map()));
    return jar;
  }
}

function originHeader(url: string, origin: string | null | undefined): Record<string, string> {
  if (origin === null) return {};
  return { origin: origin ?? new URL(url).origin };
}
