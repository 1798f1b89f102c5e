import { describe, expect, it } from '@jest/globals';
import { runFramework } from '@libs/compliance/compliance-engine.js';
import { FRAMEWORKS } from '@libs/compliance/frameworks/index.js';
import { FRAMEWORK_IDS } from '@libs/compliance/frameworks/framework-types.js';
import { WORKFLOWS_CHECKS } from './workflows-compliance.js';

const empty = { types: [], has: () => false, async *readBatches() {} };
const context = {
  backupId: 'b-1',
  collectedAt: '2026-06-01T00:00:00.000Z',
  previousBackupAt: null,
  lastRestoreAt: null,
};

describe('Okta Workflows compliance', () => {
  it.each(FRAMEWORK_IDS)(
    '%s: every control not about backups is not_applicable with a reason, none manual',
    async (id) => {
      const { findings } = await runFramework(FRAMEWORKS[id], WORKFLOWS_CHECKS, empty, context);
      for (const finding of findings) {
        if (finding.check.startsWith('service.backup.')) continue;
        expect({ check: finding.check, status: finding.status }).toEqual({
          check: finding.check,
          status: 'not_applicable',
        });
        expect(finding.evidence.note).toMatch(/Okta|Workflows/);
      }
      expect(findings.some((f) => f.status === 'manual')).toBe(false);
    },
  );
});
