import { describe, expect, it } from '@jest/globals';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import { OKTA_CHECKS } from '@libs/providers/okta/compliance/index.js';
import { ENTRA_CHECKS } from '@libs/providers/entra/compliance/index.js';
import type { RecordSource } from './compliance-types.js';
import { runFramework } from './compliance-engine.js';
import { PCI_DSS } from './frameworks/pci-dss.js';
import { FRAMEWORKS } from './frameworks/index.js';
import { complianceScore } from './score.js';

/** An in-memory backup of the given parts, in the order given. */
function source(parts: Record<string, ResourceRecord[]>): RecordSource {
  return {
    types: Object.keys(parts),
    has: (type) => type in parts,
    async *readBatches(type) {
      yield parts[type];
    },
  };
}

const context = {
  backupId: 'b-1',
  collectedAt: '2026-06-01T00:00:00.000Z',
  previousBackupAt: '2026-05-31T00:00:00.000Z',
  lastRestoreAt: null,
};

const passwordPolicy = (minLength: number): ResourceRecord => ({
  type: 'policy',
  id: 'pol1',
  name: 'Default Policy',
  data: {
    type: 'PASSWORD',
    status: 'ACTIVE',
    priority: 1,
    conditions: { people: { groups: { include: ['everyone'] } } },
    settings: { password: { complexity: { minLength, minNumber: 1, minLowerCase: 1 } } },
  },
});

describe('runFramework', () => {
  it('judges each control with the framework threshold and says manual for a type the backup left out', async () => {
    const sut = await runFramework(
      PCI_DSS,
      OKTA_CHECKS,
      source({ policy: [passwordPolicy(10)], policy_rule: [] }),
      context,
    );

    const length = sut.findings.find((f) => f.check === 'okta.password.min_length')!;
    expect(length).toMatchObject({
      control: '8.3.6',
      status: 'fail',
      evidence: {
        backupId: 'b-1',
        resources: [{ id: 'pol1', observed: { minLength: 10, groups: ['everyone'] } }],
        total: 1,
      },
    });
    const inactive = sut.findings.find((f) => f.check === 'okta.users.inactive')!;
    expect(inactive).toMatchObject({
      status: 'manual',
      evidence: { note: 'The backup does not hold user.' },
    });
  });

  it("lists only the rows of the provider's own checks: an Okta report holds no Entra row, nor an Entra one Okta's", async () => {
    for (const framework of Object.values(FRAMEWORKS)) {
      const okta = await runFramework(framework, OKTA_CHECKS, source({}), context);
      const entra = await runFramework(framework, ENTRA_CHECKS, source({}), context);
      expect(okta.findings.filter((f) => !/^(okta|service)\./.test(f.check))).toEqual([]);
      expect(entra.findings.filter((f) => !/^(entra|service)\./.test(f.check))).toEqual([]);
      expect(okta.findings.length).toBeGreaterThan(0);
      expect(entra.findings.length).toBeGreaterThan(0);
      // Each finding of either is a check of its provider saying why it is manual, never a bare one.
      for (const f of [...okta.findings, ...entra.findings].filter((x) => x.status === 'manual'))
        expect(f.evidence.note).toMatch(/\w/);
    }
  });

  it('leaves unread a part no run still wants (CheckRun.skips), and streams it when one does', async () => {
    const read: string[] = [];
    const tracked = (parts: Record<string, ResourceRecord[]>): RecordSource => {
      const inner = source(parts);
      return {
        ...inner,
        async *readBatches(type, fields) {
          read.push(type);
          yield* inner.readBatches(type, fields);
        },
      };
    };
    const seen: string[] = [];
    const globalAdmins = ENTRA_CHECKS.find((c) => c.key === 'admins.super_admin_count')!;
    const group = (assignable: boolean): ResourceRecord => ({
      type: 'group',
      id: 'g1',
      name: 'Admins',
      data: { isAssignableToRole: assignable },
    });
    const membership: ResourceRecord = { type: 'group_membership', id: 'g1:u1', name: null, data: {} };
    for (const assignable of [false, true]) {
      read.length = 0;
      await runFramework(
        { ...PCI_DSS, controls: PCI_DSS.controls.filter((c) => c.check === 'admins.super_admin_count') },
        [globalAdmins],
        tracked({
          group: [group(assignable)],
          group_membership: [membership],
          role_assignment: [],
          role_eligibility_schedule: [],
        }),
        context,
      );
      seen.push(read.join(','));
    }
    expect(seen).toEqual([
      'group,role_assignment,role_eligibility_schedule',
      'group,group_membership,role_assignment,role_eligibility_schedule',
    ]);
  });

  it('weights the score by severity, leaving out manual and not_applicable', () => {
    expect(
      complianceScore([
        { status: 'pass', severity: 'critical' },
        { status: 'fail', severity: 'high' },
        { status: 'warning', severity: 'low' },
        { status: 'manual', severity: 'critical' },
        { status: 'not_applicable', severity: 'high' },
      ]),
    ).toBe(Math.round((100 * (10 + 0.5)) / 16));
    expect(complianceScore([{ status: 'manual', severity: 'high' }])).toBe(100);
  });
});
