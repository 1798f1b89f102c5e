import { describe, expect, it } from 'vitest';
import { crossOrgMapping, EMPTY_MAPPING } from './cross-org';

describe('crossOrgMapping', () => {
  it('is undefined when nothing is mapped, or a rewrite lacks a side', () => {
    expect(crossOrgMapping(EMPTY_MAPPING)).toBeUndefined();
    expect(
      crossOrgMapping({ ...EMPTY_MAPPING, domainFrom: 'acme.com', hostTo: 'x.example' }),
    ).toBeUndefined();
  });

  it('trims rewrites and keeps a prefix or suffix as typed', () => {
    expect(
      crossOrgMapping({
        domainFrom: ' acme.com ',
        domainTo: 'sandbox.acme.com',
        hostFrom: 'app.acme.com',
        hostTo: 'app.sandbox.acme.com',
        groupPrefix: 'Sandbox - ',
        groupSuffix: '',
      }),
    ).toEqual({
      domains: [{ from: 'acme.com', to: 'sandbox.acme.com' }],
      hosts: [{ from: 'app.acme.com', to: 'app.sandbox.acme.com' }],
      groupName: { prefix: 'Sandbox - ' },
    });
  });
});
