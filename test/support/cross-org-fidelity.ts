import fastJsonPatch from 'fast-json-patch';
import { restoreDefinitions } from '@libs/providers/okta/restore/definitions/index.js';
import type { OktaResourceType } from '@libs/providers/okta/okta-resource-types.js';
import { withoutVolatile } from '@libs/diff/record-patch.js';
import type { CompiledMapping } from '@libs/restore/cross-org/mapping.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import type { SnapshotReader } from '@libs/snapshot/snapshot-reader.js';
import { type FidelityProvider, isUnavoidable, type Unavoidable } from './restore-fidelity.js';
import type { RestoreView } from './restore-helpers.js';

type Json = Record<string, unknown>;

/** Why a record the restore left alone (it names the source's own object the target lacks) is not in the target. */
const LEFT_ALONE =
  "it names Okta's own object of the source org (a default policy, a first-party app), which the target does not have and a restore never creates: left alone and named (the preview's cannotMove), as the target's own would be paired with it (mapping pairs)";

/** Why one of Okta's own objects of the source org (managed: never created) is not in the target. */
const OKTA_OWN =
  "Okta's own object of the source org (managedBecause: a default policy, a first-party app, a built-in group or zone), which a restore never creates: the target has none of that name";

/** The restore's definitions, for which objects Okta manages. */
const DEFINITIONS = restoreDefinitions({ activateUsers: false });

/** Why an app's outbound profile mapping is not in the target. */
const PROVISIONING_MAPPING =
  "Okta makes an app's outbound profile mapping when its provisioning is enabled (app_feature), which its API cannot write: set provisioning up again, then the mapping";

/** Differences only an Okta restore into another org has, beside those of docs/restore-fidelity.md's list. */
export const OKTA_CROSS_ORG_UNAVOIDABLE: Partial<Record<string, Unavoidable[]>> = {
  app: [
    {
      path: /^\/credentials\/oauthClient\/client_id$/,
      why: "an OIDC app keeps the source org's client_id (Okta takes it on creation, Application credentials.oauthClient.client_id), so its clients keep theirs; Okta gives a new app's client_id its id only when none is given",
    },
    {
      path: /^\/features(\/|$)/,
      why: "read-only (Application.features in management.yaml): the provisioning features Okta lists for an app once its provisioning is set up (app_feature), which Okta's API cannot write: a new app has none until provisioning is set up again",
    },
  ],
  policy: [
    {
      path: /^\/priority$/,
      why: "a policy's priority is its place among the org's policies of its type (1 to n, the default last; Policy.priority in management.yaml): the source's own policies the target lacks (left alone, never created) hold places in the source, so the places after them move up in the target",
    },
  ],
  user: [
    {
      path: /^\/credentials\/provider\/(name|type)$/,
      why: "a user a directory (Active Directory, LDAP) imported is mastered by that directory's agent in the source org (credentials.provider ACTIVE_DIRECTORY); Okta's API cannot create a directory-mastered user (createUser makes Okta-mastered ones: credentials.provider is read-only, UserCredentials in management.yaml), so in a target without that directory and its agent the user is Okta's (provider OKTA) until the directory imports it",
    },
  ],
  brand_theme: [
    {
      path: /^\/(logo|favicon|backgroundImage)$/,
      why: "theme logos, favicons and background images are files uploaded to the org (uploadBrandThemeLogo and the like: the theme holds only their URLs on the org's own storage), which a backup does not hold: the target's theme keeps its own until they are uploaded there",
    },
  ],
};

/**
 * Okta's `lostByDesign` (diffModuloMapping): an app's outbound profile mapping whose app's
 * provisioning (app_feature) was not written; else one of Okta's own objects (managedBecause), which
 * a restore never creates; else null.
 */
export function oktaLostByDesign(
  type: string,
  record: ResourceRecord,
  notWritten: ReadonlySet<string>,
): string | null {
  const app = String((record.data.target as Json | undefined)?.id);
  if (type === 'profile_mapping' && [...notWritten].some((id) => id.startsWith(`${app}:`)))
    return PROVISIONING_MAPPING;
  return DEFINITIONS[type as OktaResourceType]?.managedBecause?.(record.data) ? OKTA_OWN : null;
}

/** The list items of docs/restore-fidelity.md "Into another org": what only a restore into another org differs by. */
export function crossOrgUnavoidableList(): string[] {
  return [
    ...Object.entries(OKTA_CROSS_ORG_UNAVOIDABLE).flatMap(([type, allowed]) =>
      (allowed ?? []).map((entry) => `- \`${type}\` \`${entry.path.source}\`: ${entry.why}`),
    ),
    `- \`profile_mapping\` not in the target: ${PROVISIONING_MAPPING}`,
  ];
}

/** One type of the comparison of a source backup with a target's backup, modulo the mapping. */
export interface CrossOrgRow {
  type: string;
  /** records of the type in the source backup */
  source: number;
  /** of those, paired with a target record (by the restore's ids, else by natural key) */
  paired: number;
  /** fields that differ, each `<path>` once, documented or not */
  differences: string[];
  /** source records with no twin in the target (with what the restore did to them, if anything) */
  lost: string[];
  /** source records with no twin that the provider's API cannot write (the restore says "Not restored") */
  notWritten: string[];
  /** source records with no twin by design (`lostByDesign`), with why */
  byDesign: string[];
  /** target records with no twin in the source, apart from the target's own and those the provider made */
  extra: string[];
  /** differences no unavoidable entry documents */
  undocumented: string[];
  result: 'lossless' | 'documented' | 'FAILS';
}

/**
 * The diff of a source org's backup and the backup of the org it was restored into, modulo the
 * mapping, type by type in restore order: each source record is mapped (domains, hosts, group
 * names), its ids rewritten to the target's (the restore items' new ids, then every natural-key
 * pairing made so far), and paired with the target record of the same id or natural key; the
 * pair's data is compared without server-owned fields. Records of the target before the restore
 * (its own, left alone) and those the provider made itself with a re-created parent are not extra.
 */
export async function diffModuloMapping(input: {
  provider: FidelityProvider;
  /** differences of a restore into another org only, beside the provider's own unavoidable ones */
  crossOrgUnavoidable: Partial<Record<string, Unavoidable[]>>;
  /**
   * Why a source record with no twin is lost by design, or null: what the provider makes only with
   * something its API cannot write (`notWritten`: record ids not written so far, every type).
   */
  lostByDesign?(type: string, record: ResourceRecord, notWritten: ReadonlySet<string>): string | null;
  source: SnapshotReader;
  target: SnapshotReader;
  /** the target's backup before the restore (its pre-restore backup) */
  targetBefore: SnapshotReader;
  restored: RestoreView;
  mapping: CompiledMapping;
}): Promise<CrossOrgRow[]> {
  const { provider, source, target } = input;
  const ids = new Map<string, string>();
  for (const item of input.restored.items) {
    if (!item.newId) continue;
    const from = String(item.resourceId).split(':');
    const to = String(item.newId).split(':');
    from.forEach((part, index) => to[index] !== undefined && to[index] !== part && ids.set(part, to[index]));
  }
  const rewrite = (text: string) =>
    [...ids].reduce((result, [from, to]) => result.split(from).join(to), text);
  const items = new Map(
    input.restored.items.map((item) => [
      `${item.resourceType} ${item.resourceId}`,
      { action: item.action, outcome: item.outcome, notes: (item.notes as string[] | undefined) ?? [] },
    ]),
  );
  const comparable = (data: Json) => withoutVolatile(data, provider.serverOwned) as Json;
  const rows: CrossOrgRow[] = [];
  const notWritten = new Set<string>();
  // What the restore left alone: a record naming one (an Everyone membership of a left-alone user) is not written either.
  const leftAlone = new Set(
    input.restored.items
      .filter((item) => String((item.notes as string[] | undefined)?.[0] ?? '').startsWith('Left alone'))
      .map((item) => String(item.resourceId)),
  );
  for (const type of provider.order) {
    if (!source.has(type)) continue;
    const live = await all(target, type);
    const before = new Set((await all(input.targetBefore, type)).map((record) => record.id));
    const byId = new Map(live.map((record) => [record.id, record]));
    const byKey = new Map<string, ResourceRecord>();
    for (const record of live) {
      const key = provider.naturalKey?.(record);
      if (key != null && !byKey.has(key)) byKey.set(key, record);
    }
    const used = new Set<string>();
    const row: CrossOrgRow = {
      type,
      source: 0,
      paired: 0,
      differences: [],
      lost: [],
      notWritten: [],
      byDesign: [],
      extra: [],
      undocumented: [],
      result: 'lossless',
    };
    const allowed = [...(provider.unavoidable[type] ?? []), ...(input.crossOrgUnavoidable[type] ?? [])];
    for await (const original of source.readPart(type)) {
      row.source += 1;
      const mapped = input.mapping.mapRecord(original);
      const record = {
        ...mapped,
        id: rewrite(mapped.id),
        data: JSON.parse(rewrite(JSON.stringify(mapped.data))) as Json,
      };
      const key = provider.naturalKey?.(record) ?? null;
      const twin = [byId.get(record.id), key === null ? undefined : byKey.get(key)].find(
        (candidate) => candidate !== undefined && !used.has(candidate.id),
      );
      if (!twin) {
        const item = items.get(`${type} ${original.id}`);
        const why = input.lostByDesign?.(type, original, notWritten) ?? null;
        const note = String(item?.notes[0] ?? '');
        if (note.startsWith('Left alone') || original.id.split(':').some((part) => leftAlone.has(part)))
          row.byDesign.push(LEFT_ALONE);
        else if (note.startsWith('Not restored')) {
          row.notWritten.push(original.id);
          notWritten.add(original.id);
        } else if (why !== null) row.byDesign.push(why);
        else
          row.lost.push(
            `${original.id} key ${key}${item ? ` (${item.action} ${item.outcome} ${item.notes.join(' ')})` : ''}`,
          );
        continue;
      }
      used.add(twin.id);
      row.paired += 1;
      const own = (id: string) => id.split(':').pop()!;
      if (own(twin.id) !== own(original.id) && !ids.has(own(original.id)))
        ids.set(own(original.id), own(twin.id));
      for (const op of fastJsonPatch.compare(comparable(record.data), comparable(twin.data))) {
        const difference = { type, path: op.path, op: op.op, now: 'value' in op ? op.value : undefined };
        if (!row.differences.includes(op.path)) row.differences.push(op.path);
        if (!allowed.some((entry) => isUnavoidable(entry, difference)))
          row.undocumented.push(`${original.id} ${op.op} ${op.path} ${JSON.stringify(difference.now)}`);
      }
    }
    for (const record of live)
      if (
        !used.has(record.id) &&
        !before.has(record.id) &&
        !(await provider.madeByProvider(`${type} ${record.id}`, input.restored, target))
      )
        row.extra.push(record.id);
    const failed = row.lost.length + row.extra.length + row.undocumented.length > 0;
    row.result = failed
      ? 'FAILS'
      : row.differences.length + row.notWritten.length + row.byDesign.length
        ? 'documented'
        : 'lossless';
    rows.push(row);
  }
  return rows;
}

async function all(snapshot: SnapshotReader, type: string): Promise<ResourceRecord[]> {
  const records: ResourceRecord[] = [];
  if (!snapshot.has(type)) return records;
  for await (const record of snapshot.readPart(type)) records.push(record);
  return records;
}

/** The table of docs/restore-fidelity.md's "Into another org" section. */
export function crossOrgTable(rows: readonly CrossOrgRow[]): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  return [
    '| type | in the source | paired in the target | fields that differ | result |',
    '| --- | --- | --- | --- | --- |',
    ...rows.map(
      (row) =>
        `| \`${row.type}\` | ${row.source} | ${row.paired} | ${
          cell(
            [
              ...row.differences,
              ...(row.notWritten.length
                ? [`${row.notWritten.length} not written (the API cannot write them)`]
                : []),
              ...[...new Set(row.byDesign)].map((why) => `not in the target: ${why}`),
            ].join(', '),
          ) || 'none'
        } | ${row.result} |`,
    ),
  ].join('\n');
}
