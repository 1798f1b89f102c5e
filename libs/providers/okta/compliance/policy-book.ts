import type { ResourceRecord } from '@libs/records/resource-record.js';

type Json = Record<string, unknown>;

/** An object at a path of a record's data, or `{}`. */
export function objectAt(data: unknown, ...path: string[]): Json {
  let current: unknown = data;
  for (const step of path) current = (current as Json | null | undefined)?.[step];
  return typeof current === 'object' && current !== null ? (current as Json) : {};
}

/**
 * The policies and policy rules of a backup (small: a few hundred records at most), kept whole
 * so that checks can relate rules to their policy, its type and its group scope. Rule record
 * ids are `<policyId>:<ruleId>` (okta-resource-types.ts).
 */
export class PolicyBook {
  readonly policies = new Map<string, ResourceRecord>();
  readonly #rules = new Map<string, ResourceRecord[]>();

  /** Keeps `policy` and `policy_rule` records; @returns whether the record was one. */
  add(record: ResourceRecord): boolean {
    if (record.type === 'policy') this.policies.set(record.id, record);
    else if (record.type === 'policy_rule') {
      const policyId = record.id.split(':')[0];
      const list = this.#rules.get(policyId) ?? [];
      list.push(record);
      this.#rules.set(policyId, list);
    } else return false;
    return true;
  }

  /** ACTIVE policies of an Okta PolicyType (`PASSWORD`, `OKTA_SIGN_ON`...), by priority. */
  active(type: string): ResourceRecord[] {
    return [...this.policies.values()]
      .filter((policy) => policy.data.type === type && policy.data.status === 'ACTIVE')
      .sort((a, b) => Number(a.data.priority ?? 0) - Number(b.data.priority ?? 0));
  }

  /** ACTIVE rules of a policy, by priority. */
  rules(policyId: string): ResourceRecord[] {
    return (this.#rules.get(policyId) ?? [])
      .filter((rule) => rule.data.status === 'ACTIVE')
      .sort((a, b) => Number(a.data.priority ?? 0) - Number(b.data.priority ?? 0));
  }

  /** ACTIVE rules of ACTIVE policies of a type, each with its policy. */
  activeRules(type: string): Array<{ policy: ResourceRecord; rule: ResourceRecord }> {
    return this.active(type).flatMap((policy) => this.rules(policy.id).map((rule) => ({ policy, rule })));
  }

  /** Group ids a policy applies to (`conditions.people.groups.include`). */
  static groupScope(policy: ResourceRecord): string[] {
    const include = objectAt(policy.data, 'conditions', 'people', 'groups').include;
    return Array.isArray(include) ? include.map(String) : [];
  }

  /**
   * True when the global session policy requires a second factor on every rule that lets a
   * user in (`actions.signon.requireFactor`, Policy API OKTA_SIGN_ON), and there is such a rule.
   */
  globalSessionRequiresMfa(): boolean {
    const allowing = this.activeRules('OKTA_SIGN_ON').filter(({ rule }) => signOnAllows(rule));
    return (
      allowing.length > 0 &&
      allowing.every(({ rule }) => objectAt(rule.data, 'actions', 'signon').requireFactor === true)
    );
  }

  /**
   * True when every sign-in asks for a second factor: the global session policy does. App
   * sign-in policies alone do not prove it: the Okta Dashboard's and Admin Console's own
   * policies are not always in a backup, so MFA on every app is not MFA on every session.
   */
  mfaEverywhere(): boolean {
    return this.globalSessionRequiresMfa();
  }
}

/** A global session policy rule that lets users sign in. */
export function signOnAllows(rule: ResourceRecord): boolean {
  return objectAt(rule.data, 'actions', 'signon').access === 'ALLOW';
}

/** An app sign-in policy rule that lets users in. */
export function appSignOnAllows(rule: ResourceRecord): boolean {
  return objectAt(rule.data, 'actions', 'appSignOn').access === 'ALLOW';
}

/** An app sign-in rule asking for two factors (`factorMode` `2FA`). */
export function requiresTwoFactors(rule: ResourceRecord): boolean {
  return objectAt(rule.data, 'actions', 'appSignOn', 'verificationMethod').factorMode === '2FA';
}
