import { describe, expect, it } from '@jest/globals';

import { listPage } from './odata-list.js';

const BASE = 'https://graph.test';
const USERS = Array.from({ length: 250 }, (_, i) => ({ id: `u${i}`, manager: null }));

/** The page `listPage` answers for `query`, parsed. */
function page(query: string, expanded: string[] = []) {
  const reply = listPage(new URL(`${BASE}/v1.0/users?${query}`), BASE, 'users', USERS, undefined, expanded);
  return JSON.parse(String(reply.body)) as { value: unknown[]; '@odata.nextLink'?: string };
}

describe('listPage', () => {
  it('answers $top objects a page, and at most 100 when the list is expanded, as Graph does', () => {
    expect(page('$top=999').value).toHaveLength(250);
    const expanded = page('$top=999&$expand=manager', ['manager']);
    expect(expanded.value).toHaveLength(100);
    const next = new URL(expanded['@odata.nextLink']!);
    expect(next.searchParams.get('$expand')).toBe('manager');
    const second = page(next.search.slice(1), ['manager']);
    expect(second.value).toHaveLength(100);
    expect((second.value[0] as { id: string }).id).toBe('u100');
  });
});
