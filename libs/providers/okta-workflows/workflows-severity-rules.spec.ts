import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import type { ChangeAction, ChangeFacts } from '@libs/diff/change-facts.js';
import { recordPatch } from '@libs/diff/record-patch.js';
import { rateChange } from '@libs/diff/severity-rule.js';

import { flowCardChanges } from './card-changes.js';
import { EXPORTED } from './workflow-records.js';
import { WORKFLOWS_SEVERITY_RULES } from './workflows-severity-rules.js';

type Json = Record<string, unknown>;
const VOLATILE = new Set([EXPORTED]);
const OKTA = 'root:channels:http:okta:1.0.685';

const rate = (facts: ChangeFacts) => rateChange(WORKFLOWS_SEVERITY_RULES, facts);

function change(resourceType: string, action: ChangeAction, before?: Json, after?: Json): ChangeFacts {
  const patch = action === 'modified' ? recordPatch(before ?? {}, after ?? {}, VOLATILE) : [];
  return { resourceType, action, before, after, patch };
}

/** A flow record as backups store it: cards keyed `<address>#<n>`. */
const flow = (actions: string[], inputs: Json = {}, exportedId = 'a1') => ({
  name: 'Flow',
  cards: Object.fromEntries(
    actions.map((action) => [
      `${OKTA}:${action}#1`,
      { address: `${OKTA}:${action}`, name: action, connection: 'c1', inputs },
    ]),
  ),
  [EXPORTED]: { uuid: exportedId },
});

const EXAMPLES: Record<string, { rates: ChangeFacts; spares?: ChangeFacts[] }> = {
  'workflows-privileged-flow-changed': {
    rates: change(
      'workflow',
      'modified',
      flow(['deactivateUser']),
      flow(['deactivateUser'], { 'Send Email': true }),
    ),
    spares: [change('workflow', 'modified', flow(['readUser']), flow(['readUser'], { x: 1 }))],
  },
  'workflows-flow-removed': {
    rates: change('workflow', 'removed', flow(['readUser'])),
    spares: [change('workflow', 'removed', flow(['assignAdminRoleToUser']))],
  },
  'workflows-connection-changed': {
    rates: change('workflow_connection', 'added', undefined, { name: 'Okta' }),
  },
  'workflows-flow-changed': {
    rates: change('workflow', 'added', undefined, flow(['readUser'])),
    spares: [change('workflow', 'added', undefined, flow(['suspendUser']))],
  },
  'workflows-other-change': {
    rates: change('workflow_table', 'modified', { rows: [] }, { rows: [{ a: '1' }] }),
  },
};

describe('Okta Workflows severity rules', () => {
  it('has an example for every rule', () => {
    expect(Object.keys(EXAMPLES).sort()).toEqual(WORKFLOWS_SEVERITY_RULES.map((rule) => rule.id).sort());
  });

  describe.each(WORKFLOWS_SEVERITY_RULES.map((rule) => [rule.id, rule] as const))('%s', (id, rule) => {
    it('rates its example', () => {
      expect(rate(EXAMPLES[id].rates)).toEqual({ severity: rule.severity, rule: id });
    });
    it('leaves its near misses to other rules', () => {
      for (const facts of EXAMPLES[id].spares ?? []) expect(rate(facts).rule).not.toBe(id);
    });
  });

  it('sees no change where only the ids of an export differ', () => {
    expect(
      change('workflow', 'modified', flow(['readUser'], {}, 'a1'), flow(['readUser'], {}, 'b2')).patch,
    ).toEqual([]);
  });

  it('names the card a change lies in, and cards added or removed', () => {
    const before = flow(['readUser', 'deactivateUser']);
    const after = { ...flow(['readUser', 'suspendUser']) };
    (after.cards as Record<string, { inputs: Json }>)[`${OKTA}:readUser#1`].inputs = { 'ID or Login': 'x' };
    const { patch } = change('workflow', 'modified', before, after);
    const sut = flowCardChanges('workflow', before, after, patch);
    expect(sut.map(({ key, name, action }) => ({ key, name, action }))).toEqual(
      expect.arrayContaining([
        { key: `${OKTA}:readUser#1`, name: 'readUser', action: 'modified' },
        { key: `${OKTA}:deactivateUser#1`, name: 'deactivateUser', action: 'removed' },
        { key: `${OKTA}:suspendUser#1`, name: 'suspendUser', action: 'added' },
      ]),
    );
    expect(sut).toHaveLength(3);
  });

  it('is the table docs/severity.md publishes under "Okta Workflows", rule by rule', () => {
    const doc = readFileSync(new URL('../../../docs/severity.md', import.meta.url), 'utf8')
      .split('\n## Okta Workflows')[1]
      .split('\n## ')[0];
    const rows = [...doc.matchAll(/^\| `([a-z-]+)` +\| (critical|high|medium|low|info) +\|/gm)].map(
      (match) => [match[1], match[2]],
    );
    expect(rows).toEqual(WORKFLOWS_SEVERITY_RULES.map((rule) => [rule.id, rule.severity]));
  });
});
