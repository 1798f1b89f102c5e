import { z } from 'zod';
import { ProviderError } from '@libs/providers/provider-errors.js';

/**
 * An Okta Workflows export (`.folder`, `.flopack` or a single `.flow`), as the console and the
 * *Export Folder* card make it (Okta Workflows help "Export and import flows"; the real exports of
 * okta/workflows-templates, versions 1.2.0 to 1.5.0, research note §1.4):
 * `{ type: "flopack", version, created, flags, data: { flos, configs, tables, groups } }`.
 * Members we do not read are kept as they are (`passthrough`), so a re-import package holds what
 * the export held.
 */
const ENTRY_ID = z.string().min(1).max(200);
const FLO = z.looseObject({
  id: ENTRY_ID,
  name: z.string(),
  description: z.string().nullish(),
  data: z.looseObject({
    methods: z.array(z.looseObject({ address: z.string(), node: z.looseObject({}).optional() })).optional(),
    group: z.string().nullish(),
  }),
});
const CONFIG = z.looseObject({ id: ENTRY_ID, name: z.string(), module: z.string(), data: z.unknown() });
const TABLE = z.looseObject({
  id: ENTRY_ID,
  name: z.string(),
  data: z.looseObject({
    group_id: z.string().nullish(),
    structure: z.array(z.looseObject({ name: z.string(), type: z.string() })),
  }),
});
const GROUP = z.looseObject({ id: ENTRY_ID, data: z.looseObject({ name: z.string() }) });
export const FLOPACK = z.looseObject({
  type: z.literal('flopack'),
  version: z.string().regex(/^\d+\.\d+\.\d+$/),
  created: z.string().optional(),
  flags: z.record(z.string(), z.unknown()).optional(),
  data: z.looseObject({
    flos: z.record(z.string(), FLO),
    configs: z.record(z.string(), CONFIG).default({}),
    tables: z.record(z.string(), TABLE).default({}),
    groups: z.record(z.string(), GROUP).default({}),
  }),
});

export type Flopack = z.infer<typeof FLOPACK>;

/** The format a package is written in when the backup kept none (the newest version of the real exports). */
export const FLOPACK_DEFAULTS = {
  version: '1.5.0',
  flags: { 'auto-transform': true, looseBooleans: true, looseStrings: true, looseNulls: true },
};
export type FlopackFlo = z.infer<typeof FLO>;
export type FlopackConfig = z.infer<typeof CONFIG>;
export type FlopackTable = z.infer<typeof TABLE>;
export type FlopackGroup = z.infer<typeof GROUP>;

/**
 * The export, checked: every entry keyed by its own id, and every card's connection a placeholder
 * without data (an export never carries connection secrets; one that does is not what Workflows
 * makes, and we refuse to store it).
 * @throws ProviderError `invalid_flopack` naming the first problem
 */
export function parseFlopack(value: unknown): Flopack {
  const parsed = FLOPACK.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ProviderError(
      `Not an Okta Workflows export (flopack): ${issue.path.join('.') || 'document'}: ${issue.message}`,
      'invalid_flopack',
    );
  }
  const { data } = parsed.data;
  for (const [kind, entries] of Object.entries({
    flos: data.flos,
    configs: data.configs,
    tables: data.tables,
    groups: data.groups,
  }))
    for (const [key, entry] of Object.entries(entries))
      if (entry.id !== key)
        throw new ProviderError(
          `Not an Okta Workflows export (flopack): data.${kind}.${key} has id ${entry.id}`,
          'invalid_flopack',
        );
  for (const config of Object.values(data.configs))
    if (config.data !== null && config.data !== undefined)
      throw new ProviderError(
        `The export holds connection data for ${config.name}: Workflows exports carry none; refusing to store it`,
        'invalid_flopack',
      );
  return parsed.data;
}

/**
 * A flopack holding exactly the given entries, with the `version` and `flags` of the export they
 * came from: what the console's folder Actions > Import takes.
 */
export function buildFlopack(
  source: { version: string; flags?: Record<string, unknown> },
  entries: { flos: FlopackFlo[]; configs: FlopackConfig[]; tables: FlopackTable[]; groups: FlopackGroup[] },
  created: string,
): Flopack {
  const byId = <T extends { id: string }>(items: T[]) =>
    Object.fromEntries(items.map((item) => [item.id, item]));
  return {
    type: 'flopack',
    version: source.version,
    created,
    flags: source.flags ?? {},
    data: {
      flos: byId(entries.flos),
      configs: byId(entries.configs),
      tables: byId(entries.tables),
      groups: byId(entries.groups),
    },
  };
}
