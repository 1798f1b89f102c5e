import { describe, expect, it } from 'vitest';
import { changedByText } from './changed-by';

describe('changedByText', () => {
  it('names the actor by display name and sign-in name, with the client it came from', () => {
    expect(
      changedByText({
        attribution: 'recorded',
        changedBy: {
          id: '00u1',
          displayName: 'Mallory Moe',
          type: 'user',
          alternateId: 'mallory@acme.example',
          ipAddress: '203.0.113.7',
          userAgent: 'curl/8.5',
        },
      }),
    ).toEqual({
      who: 'Mallory Moe (mallory@acme.example)',
      from: '203.0.113.7 · curl/8.5',
      missing: null,
      byThisService: false,
    });
  });

  it('names an app by its id once when it has no other name, and marks this service', () => {
    expect(
      changedByText({
        attribution: 'recorded',
        byThisService: true,
        changedBy: { id: '0oa9', displayName: '0oa9', type: 'app' },
      }),
    ).toEqual({ who: '0oa9', from: null, missing: null, byThisService: true });
  });

  it('says why no actor is named', () => {
    expect(changedByText({ attribution: 'no_record', changedBy: null }).missing).toBe('no_record');
    expect(changedByText({ attribution: 'not_available', changedBy: null }).missing).toBe('not_available');
  });
});
