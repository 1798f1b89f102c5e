import type { Check } from '@libs/compliance/compliance-types.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import { judgeEach, num } from './okta-outcomes.js';
import { objectAt, signOnAllows } from './policy-book.js';
import { type SettingsRecords, settingsCheck } from './settings-check.js';

const SESSION = '/actions/signon/session';

/**
 * Judges the session settings of every rule of the global session policies (OKTA_SIGN_ON) that
 * lets users in: `actions.signon.session` (Policy API).
 */
function eachSessionRule(
  records: SettingsRecords,
  pointer: string,
  expected: unknown,
  judge: (session: Record<string, unknown>) => { observed: Record<string, unknown>; ok: boolean },
) {
  const judged = records.book
    .activeRules('OKTA_SIGN_ON')
    .filter(({ rule }) => signOnAllows(rule))
    .map(({ policy, rule }) => {
      const { observed, ok } = judge(objectAt(rule.data, 'actions', 'signon', 'session'));
      return { record: label(policy, rule), observed, ok };
    });
  return judgeEach(
    'policy_rule',
    [pointer],
    expected,
    judged,
    'The backup holds no active global session policy rule.',
  );
}

/** A rule named with its policy, as an admin finds it. */
export function label(policy: ResourceRecord, rule: ResourceRecord): Pick<ResourceRecord, 'id' | 'name'> {
  return { id: rule.id, name: `${policy.name ?? policy.id} / ${rule.name ?? rule.id}` };
}

const idleTimeout = settingsCheck({
  key: 'session.idle_timeout',
  id: 'okta.session.idle_timeout',
  title: 'Idle sessions expire',
  remediation: 'Lower "Expire session after user has been idle" in every global session policy rule.',
  reads: ['policy', 'policy_rule'],
  evaluate(records, params) {
    const limit = num(params, 'maxIdleMinutes');
    return eachSessionRule(
      records,
      `${SESSION}/maxSessionIdleMinutes`,
      { maxSessionIdleMinutes: limit },
      (session) => {
        const idle = Number(session.maxSessionIdleMinutes ?? 0);
        return { observed: { maxSessionIdleMinutes: idle }, ok: idle > 0 && idle <= limit };
      },
    );
  },
});

const lifetime = settingsCheck({
  key: 'session.lifetime',
  id: 'okta.session.lifetime',
  title: 'Sessions have a maximum lifetime',
  remediation:
    'Set "Maximum Okta global session lifetime" in every global session policy rule (0 means unlimited).',
  reads: ['policy', 'policy_rule'],
  evaluate(records, params) {
    const limit = num(params, 'maxLifetimeMinutes');
    return eachSessionRule(
      records,
      `${SESSION}/maxSessionLifetimeMinutes`,
      { maxSessionLifetimeMinutes: limit },
      (session) => {
        const minutes = Number(session.maxSessionLifetimeMinutes ?? 0);
        return { observed: { maxSessionLifetimeMinutes: minutes }, ok: minutes > 0 && minutes <= limit };
      },
    );
  },
});

const persistentCookie = settingsCheck({
  key: 'session.persistent_cookie',
  id: 'okta.session.persistent_cookie',
  title: 'Sessions do not persist across browser restarts',
  remediation: 'Turn off "Okta global session cookies persist across browser sessions".',
  reads: ['policy', 'policy_rule'],
  evaluate(records) {
    return eachSessionRule(
      records,
      `${SESSION}/usePersistentCookie`,
      { usePersistentCookie: false },
      (session) => ({
        observed: { usePersistentCookie: session.usePersistentCookie === true },
        ok: session.usePersistentCookie !== true,
      }),
    );
  },
});

/** Global session policy checks: idle timeout, lifetime, persistent cookies. */
export const SESSION_CHECKS: readonly Check[] = [idleTimeout, lifetime, persistentCookie];
