import { describe, expect, it } from '@jest/globals';
import type { TransportResponse } from './http-transport.js';
import { followPages, linkHeaderNext, readODataPage } from './pagers.js';

/** An answer as the transport hands it over. */
function answer(
  status: number,
  body: unknown,
  headers: TransportResponse['headers'] = {},
): TransportResponse {
  const text = JSON.stringify(body);
  return { status, headers, bytes: new TextEncoder().encode(text), body: text };
}

/**
 * Okta's `Link` headers on a page of a user search, as recorded
 * (../shared/fixtures/okta/vcr/terraform-provider-okta/TestAccDataSourceOktaUser_read/classic-00.yaml).
 */
const ORG = 'https://classic-00.dne-okta.com';
const FIRST = `${ORG}/api/v1/users?limit=1&search=profile.lastName+eq+%22Smith%22+and+profile.firstName+eq+%22TestAcc%22`;
const RECORDED_LINKS = [
  `<${FIRST}>; rel="self"`,
  `<${ORG}/api/v1/users?after=00uvo7s8abwP37lV81d7&limit=1&search=profile.lastName+eq+%22Smith%22+and+profile.firstName+eq+%22TestAcc%22>; rel="next"`,
];

/** Serves `answers` by URL, recording the URLs asked for. */
function server(answers: Record<string, TransportResponse>) {
  const asked: string[] = [];
  return {
    asked,
    fetch: async (url: URL) => {
      asked.push(url.href);
      const found = answers[url.href];
      if (!found) throw new Error(`no answer for ${url.href}`);
      return found;
    },
  };
}

const failure = (response: TransportResponse) => new Error(`HTTP ${response.status}`);

async function all<T>(pages: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const page of pages) out.push(page);
  return out;
}

describe('followPages with the Link header pager (RFC 8288)', () => {
  it('follows Okta\'s recorded rel="next" as an opaque URL until a page has none', async () => {
    const next = new URL(RECORDED_LINKS[1].slice(1, RECORDED_LINKS[1].indexOf('>'))).href;
    const { asked, fetch } = server({
      [new URL(FIRST).href]: answer(200, [{ id: '00uvo7s8abwP37lV81d7' }], { link: RECORDED_LINKS }),
      [next]: answer(200, [{ id: '00uvowubswldNSv9v1d7' }], { link: RECORDED_LINKS[0] }),
    });
    const read = (response: TransportResponse, url: URL) => ({
      page: JSON.parse(response.body) as unknown,
      next: linkHeaderNext(response, url),
    });
    const pages = await all(followPages({ first: new URL(FIRST), fetch, read, failure }));
    expect(pages).toEqual([[{ id: '00uvo7s8abwP37lV81d7' }], [{ id: '00uvowubswldNSv9v1d7' }]]);
    expect(asked).toEqual([new URL(FIRST).href, next]);
  });

  it('ends at once on a first answer listed in emptyOn, and throws for a later one', async () => {
    const first = new URL(`${ORG}/api/v1/groups/00g1/users`);
    const read = (response: TransportResponse, url: URL) => ({
      page: response.body,
      next: linkHeaderNext(response, url),
    });
    const gone = server({ [first.href]: answer(404, {}) });
    expect(await all(followPages({ first, fetch: gone.fetch, read, failure, emptyOn: [404] }))).toEqual([]);

    const later = new URL(`${ORG}/api/v1/groups/00g1/users?after=x`);
    const broken = server({
      [first.href]: answer(200, [], { link: `<${later.href}>; rel="next"` }),
      [later.href]: answer(404, {}),
    });
    await expect(
      all(followPages({ first, fetch: broken.fetch, read, failure, emptyOn: [404] })),
    ).rejects.toThrow('HTTP 404');
  });
});

/**
 * Graph pages as Microsoft Graph "Paging Microsoft Graph data" and "Use delta query" show them
 * (learn.microsoft.com/graph/paging, /graph/delta-query-overview); the shared fixtures hold no
 * recorded Graph answer (../shared/research/workflows-entra.md §2.4-2.5).
 */
const GRAPH = 'https://graph.microsoft.com';
const GRAPH_FIRST = `${GRAPH}/v1.0/users?$top=2`;
const GRAPH_NEXT = `${GRAPH}/v1.0/users?$top=2&$skiptoken=RFNwdAIAAQAAACpHcm91cF8xYzY5`;
const GRAPH_DELTA = `${GRAPH}/v1.0/users/delta?$deltatoken=oEcOySpF_hWYmTIUZBOIfPzcwisr_rPe8o9M54L45qEXQGmvQC6T2dbL`;

describe('followPages with the @odata.nextLink pager', () => {
  it('follows @odata.nextLink until a page has none, and hands over the deltaLink', async () => {
    const { asked, fetch } = server({
      [new URL(GRAPH_FIRST).href]: answer(200, {
        '@odata.context': `${GRAPH}/v1.0/$metadata#users`,
        '@odata.nextLink': GRAPH_NEXT,
        value: [{ id: '87d349ed-44d7-43e1-9a83-5f2406dee5bd', displayName: 'Adele Vance' }],
      }),
      [new URL(GRAPH_NEXT).href]: answer(200, {
        '@odata.context': `${GRAPH}/v1.0/$metadata#users`,
        '@odata.deltaLink': GRAPH_DELTA,
        value: [{ id: '626cbf8c-5dde-46b0-8385-9e40d64736fe', displayName: 'Alex Wilber' }],
      }),
    });
    const deltaLinks: Array<string | null> = [];
    const read = (response: TransportResponse, url: URL) => {
      const page = readODataPage(JSON.parse(response.body), url);
      if (!page) throw new Error('not an OData collection');
      deltaLinks.push(page.deltaLink);
      return { page: page.items.map((item) => item.displayName), next: page.next };
    };
    const pages = await all(followPages({ first: new URL(GRAPH_FIRST), fetch, read, failure }));
    expect(pages).toEqual([['Adele Vance'], ['Alex Wilber']]);
    expect(asked).toEqual([new URL(GRAPH_FIRST).href, new URL(GRAPH_NEXT).href]);
    expect(deltaLinks).toEqual([null, GRAPH_DELTA]);
  });
});

describe('readODataPage', () => {
  const url = new URL(GRAPH_FIRST);

  it('resolves a relative @odata.nextLink against the request URL', () => {
    const sut = readODataPage({ value: [], '@odata.nextLink': 'users?$skiptoken=abc' }, url);
    expect(sut?.next?.href).toBe(`${GRAPH}/v1.0/users?$skiptoken=abc`);
  });

  it('returns null for a body that is not an OData collection', () => {
    expect(readODataPage([{ id: 'a' }], url)).toBeNull();
    expect(readODataPage({ error: { code: 'TooManyRequests' } }, url)).toBeNull();
    expect(readODataPage({ value: [1, 2] }, url)).toBeNull();
    expect(readODataPage({ value: [], '@odata.nextLink': 42 }, url)).toBeNull();
  });
});
