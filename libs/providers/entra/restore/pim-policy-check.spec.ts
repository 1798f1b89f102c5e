import { describe, expect, it } from '@jest/globals';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import { PimPolicyCheck } from './pim-policy-check.js';

/** Global Administrator's role definition id: its template id, the same in every tenant ("unifiedRoleDefinition"). */
const GLOBAL_ADMIN = '62e90394-69f5-4237-9190-012177145e10';

const policy = (id: string): ResourceRecord => ({
  type: 'role_management_policy',
  id,
  name: 'DirectoryRole',
  data: { id, scopeId: '/', scopeType: 'DirectoryRole', rules: [] },
});

describe('PimPolicyCheck.policyKey', () => {
  it("pairs two tenants' policies of the same role by scope and role, whatever their ids", () => {
    const check = new PimPolicyCheck();
    const source = 'DirectoryRole_11111111-1111-1111-1111-111111111111_aaaaaaaa-0000-0000-0000-000000000001';
    const target = 'DirectoryRole_22222222-2222-2222-2222-222222222222_bbbbbbbb-0000-0000-0000-000000000002';
    check.learnRole({ policyId: source, roleDefinitionId: GLOBAL_ADMIN });
    check.learnRole({ policyId: target, roleDefinitionId: GLOBAL_ADMIN });
    expect(check.policyKey(policy(source))).toBe(`DirectoryRole / ${GLOBAL_ADMIN}`);
    expect(check.policyKey(policy(target))).toBe(check.policyKey(policy(source)));
  });

  it('has no key for a policy whose assignment it has not seen', () => {
    expect(new PimPolicyCheck().policyKey(policy('DirectoryRole_x_y'))).toBeNull();
  });
});
