import { describe, expect, it } from '@jest/globals';
import { RATE_LIMIT_RULES } from './rate-limit.rules.js';

/** The rules covering a request, by name and limit. */
const covering = (method: string, path: string): string[] =>
  RATE_LIMIT_RULES.filter((rule) => rule.appliesTo(method, path)).map((rule) => `${rule.name}=${rule.limit}`);

describe('RATE_LIMIT_RULES (spec "Limits")', () => {
  it('gives every /api route the default 120', () => {
    expect(covering('GET', '/api/backup/list')).toEqual(['api=120']);
    expect(covering('DELETE', '/api/connections/:id')).toEqual(['api=120']);
  });

  it('adds 10 for backup runs and every restore mutation, including restore routes not written yet', () => {
    const strict = ['backup-restore-mutations=10', 'api=120'];
    expect(covering('POST', '/api/backup/run')).toEqual(strict);
    expect(covering('POST', '/api/restore')).toEqual(strict);
    expect(covering('POST', '/api/restore/:id/cancel')).toEqual(strict);
    expect(covering('DELETE', '/api/restore/:id')).toEqual(strict);
    expect(covering('PATCH', '/api/restore/:id')).toEqual(strict);
  });

  it('adds 10 for a restore drill, which reads a whole snapshot as a backup does', () => {
    expect(covering('POST', '/api/backup/:id/verify')).toEqual(['backup-restore-mutations=10', 'api=120']);
  });

  it('leaves the restore preview (a GET) and look-alike paths at the default', () => {
    expect(covering('GET', '/api/restore')).toEqual(['api=120']);
    expect(covering('POST', '/api/restores')).toEqual(['api=120']);
    expect(covering('GET', '/api/backup/run')).toEqual(['api=120']);
  });

  it('adds 20 for the two sign-in code endpoints', () => {
    expect(covering('POST', '/api/auth/send-code')).toEqual(['sign-in-codes=20', 'api=120']);
    expect(covering('POST', '/api/auth/verify-code')).toEqual(['sign-in-codes=20', 'api=120']);
  });

  it("counts the sign-in page's code forms toward the same 20", () => {
    expect(covering('POST', '/interaction/:uid/send-code')).toEqual(['sign-in-codes=20']);
    expect(covering('POST', '/interaction/:uid/verify-code')).toEqual(['sign-in-codes=20']);
  });

  it('gives the readiness probe 60 of its own, and leaves liveness unlimited', () => {
    expect(covering('GET', '/readyz')).toEqual(['probes=60']);
    expect(covering('GET', '/livez')).toEqual([]);
  });

  it('covers nothing outside /api/', () => {
    expect(covering('POST', '/oauth/token')).toEqual([]);
    expect(covering('GET', '/.well-known/oauth-protected-resource')).toEqual([]);
  });
});
