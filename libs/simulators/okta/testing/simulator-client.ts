import { Agent, request } from 'undici';

import type { RunningSimulator } from '@libs/simulators/okta/simulator-options.js';

/** A response as a test sees it. */
export interface ClientResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body parsed as JSON (undefined when empty). */
  body: unknown;
}

export interface RequestOptions {
  /** `SSWS <adminToken>` by default; a Bearer token, or null for no Authorization header. */
  auth?: { bearer: string } | null;
  json?: unknown;
  form?: Record<string, string>;
  headers?: Record<string, string>;
}

/** `rel` -> URL of a Link header (one header per relation, or comma-joined). */
export function parseLinks(header: string | string[] | undefined): Record<string, string> {
  const links: Record<string, string> = {};
  for (const value of [header ?? []].flat())
    for (const match of value.matchAll(/<([^>]+)>;\s*rel="([^"]+)"/g)) links[match[2]] = match[1];
  return links;
}

/**
 * An HTTPS client for specs that trusts the simulator's CA only (undici Agent with `ca`),
 * as a real client configured with the CA would.
 */
export class SimulatorClient {
  readonly agent: Agent;

  constructor(private readonly simulator: RunningSimulator) {
    this.agent = new Agent({ connect: { ca: simulator.caCertPem } });
  }

  async call(method: string, pathOrUrl: string, options: RequestOptions = {}): Promise<ClientResponse> {
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (options.auth === undefined) headers.authorization = `SSWS ${this.simulator.adminToken}`;
    else if (options.auth) headers.authorization = `Bearer ${options.auth.bearer}`;
    let body: string | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(options.form).toString();
    }
    const url = pathOrUrl.startsWith('https://') ? pathOrUrl : `${this.simulator.baseUrl}${pathOrUrl}`;
    const response = await request(url, { method: method as 'GET', headers, body, dispatcher: this.agent });
    const text = await response.body.text();
    return {
      status: response.statusCode,
      headers: response.headers,
      text,
      body: text ? JSON.parse(text) : undefined,
    };
  }

  /** Follows `rel="next"` links from `path`; every page must answer 200. */
  async walk(
    path: string,
    options: RequestOptions = {},
  ): Promise<{ items: Array<Record<string, unknown>>; pages: number }> {
    const items: Array<Record<string, unknown>> = [];
    let next: string | undefined = path;
    let pages = 0;
    while (next) {
      const response = await this.call('GET', next, options);
      if (response.status !== 200)
        throw new Error(`GET ${next} answered ${response.status}: ${response.text}`);
      items.push(...(response.body as Array<Record<string, unknown>>));
      pages++;
      next = parseLinks(response.headers.link).next;
    }
    return { items, pages };
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
