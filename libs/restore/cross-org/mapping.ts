import type { ResourceRecord } from '@libs/records/resource-record.js';
import type { ProviderKind } from '@libs/providers/provider-kind.js';

/** One rewrite of a name: `from` becomes `to` (compared without regard to case). */
export interface Rewrite {
  from: string;
  to: string;
}

/**
 * How a backup of one org is carried into another (docs/restore.md "Into another org"): what
 * differs between the two orgs by design. Every rewrite applies to every string value of every
 * record the restore writes (never to object keys), before it is matched or written.
 */
export interface CrossOrgMapping {
  /** e-mail and login domains: `ann@from` becomes `ann@to` wherever an address stands (logins, e-mails, expressions) */
  domains?: Rewrite[];
  /**
   * URL hosts (app URLs, redirect URIs, hook endpoints, trusted origins): `https://from/...`
   * becomes `https://to/...`; a host without a port matches any port, which is kept.
   */
  hosts?: Rewrite[];
  /** added around the name of every group the restore writes (not the provider's own groups) */
  groupName?: { prefix?: string; suffix?: string };
  /** explicit pairs: the source object with this id is the target's object with that id */
  pairs?: Array<{ sourceId: string; targetId: string }>;
}

/**
 * Where a group's name stands in a provider's group record, and which groups carry a name of
 * their own (Okta names APP_GROUP groups after their app and BUILT_IN ones itself:
 * https://developer.okta.com/docs/api/openapi/okta-management/management/tag/Group/ "type").
 */
const GROUP_NAMES: Readonly<
  Record<
    ProviderKind,
    { type: string; path: readonly string[]; own?: (data: Record<string, unknown>) => boolean }
  >
> = {
  okta: { type: 'group', path: ['profile', 'name'], own: (data) => data.type === 'OKTA_GROUP' },
  // https://learn.microsoft.com/en-us/graph/api/resources/group "displayName"
  entra_id: { type: 'group', path: ['displayName'] },
};

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A mapping compiled for a provider: what `mapRecord` applies. */
export interface CompiledMapping {
  /** the record with the mapping's rewrites applied (the same object when nothing changed) */
  mapRecord(record: ResourceRecord): ResourceRecord;
  /** source object id -> target object id, from the explicit pairs */
  pairs: ReadonlyMap<string, string>;
}

/**
 * Compiles a mapping for a provider's records.
 * Domains match after an `@` and end where a domain ends (`@acme.com` does not match
 * `@acme.com.au`); hosts match after `://` and end where a host ends.
 */
export function compileMapping(provider: ProviderKind, mapping: CrossOrgMapping): CompiledMapping {
  const rules: Array<[RegExp, string]> = [
    ...(mapping.domains ?? []).map(({ from, to }): [RegExp, string] => [
      new RegExp(`@${escape(from)}(?![A-Za-z0-9.-])`, 'gi'),
      `@${to}`,
    ]),
    ...(mapping.hosts ?? []).map(({ from, to }): [RegExp, string] => [
      new RegExp(`://${escape(from)}(?![A-Za-z0-9.-])`, 'gi'),
      `://${to}`,
    ]),
  ];
  const renameGroups = mapping.groupName && (mapping.groupName.prefix || mapping.groupName.suffix);
  const groups = GROUP_NAMES[provider];
  const text = (value: string) => rules.reduce((result, [pattern, to]) => result.replace(pattern, to), value);
  const pairs = new Map((mapping.pairs ?? []).map(({ sourceId, targetId }) => [sourceId, targetId]));

  return {
    pairs,
    mapRecord(record) {
      const renamed =
        renameGroups && groups && record.type === groups.type && (groups.own?.(record.data) ?? true);
      if (!rules.length && !renamed) return record;
      let data = rules.length ? (rewriteStrings(record.data, text) as Record<string, unknown>) : record.data;
      let name = record.name === null ? null : text(record.name);
      const current = valueAt(data, groups?.path ?? []);
      if (renamed && typeof current === 'string') {
        const { prefix = '', suffix = '' } = mapping.groupName!;
        name = `${prefix}${current}${suffix}`;
        data = withValueAt(data, groups!.path, name);
      }
      return { ...record, data, name };
    },
  };
}

/** `value` with `map` applied to every string in it, at any depth (object keys left alone). */
function rewriteStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === 'string') return map(value);
  if (Array.isArray(value)) return value.map((item) => rewriteStrings(item, map));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, rewriteStrings(item, map)]));
  return value;
}

function valueAt(data: Record<string, unknown>, path: readonly string[]): unknown {
  return path.reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], data);
}

function withValueAt(
  data: Record<string, unknown>,
  path: readonly string[],
  value: unknown,
): Record<string, unknown> {
  const [key, ...rest] = path;
  return {
    ...data,
    [key]: rest.length ? withValueAt((data[key] ?? {}) as Record<string, unknown>, rest, value) : value,
  };
}
