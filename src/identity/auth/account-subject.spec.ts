import { describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { formatAccountSubject, parseAccountSubject } from './account-subject.js';

describe('account subjects', () => {
  it('round-trip a user in a team', () => {
    const account = { userId: randomUUID(), teamId: randomUUID() };
    expect(parseAccountSubject(formatAccountSubject(account))).toEqual(account);
  });

  it.each([
    'ic_0123456789abcdefghijkl',
    'https://app.example/client.json',
    `${randomUUID()}`,
    `${randomUUID()}:x`,
    `${randomUUID()}:${randomUUID()}:${randomUUID()}`,
  ])('refuse %s, which is not one', (subject) => {
    expect(parseAccountSubject(subject)).toBeNull();
  });
});
