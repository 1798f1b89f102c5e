import { contentHash } from '@libs/snapshot/content-hash.js';
import { answerMayBeLost } from '@libs/providers/provider-errors.js';
import type {
  IdMap,
  LiveResource,
  ProviderRestorer,
  RestoreSupport,
  RestoreWrite,
  RestoreWriteResult,
} from '@libs/providers/provider-restore.js';
import type { ResourceRecord, ResourceType } from '@libs/records/resource-record.js';
import { type TypeRestoreDefinition, omit } from './type-restore-definition.js';

/** Creations of one object at most when the answers to the earlier ones were lost: the five attempts the transport gives an idempotent request. */
const CREATE_ATTEMPTS = 5;

/**
 * A ProviderRestorer made of one TypeRestoreDefinition per type (a provider's `definitions/`):
 * what every provider's restorer does the same way. Fingerprints hash the definition's `writable`
 * part (default: the data without `serverOwned`) without the provider's volatile fields; writes go
 * to the type's definition; a creation whose answer was lost is looked for (`find`) before it is
 * made again. A provider's restorer adds its id rewriting, what it manages and what it protects.
 */
export abstract class DefinitionRestorer<
  C,
  D extends TypeRestoreDefinition<C> = TypeRestoreDefinition<C>,
> implements ProviderRestorer {
  abstract readonly order: readonly ResourceType[];
  readonly guardedTypes: readonly ResourceType[];

  /**
   * @param provider the provider's name in messages ("Okta")
   * @param definitions per type; a type without one is not written
   * @param serverOwned top-level fields the provider sets itself (never written or compared)
   * @param volatileFields fields left out of fingerprints at any depth (contentHash)
   */
  protected constructor(
    private readonly provider: string,
    private readonly definitions: Readonly<Partial<Record<ResourceType, D>>>,
    private readonly serverOwned: readonly string[],
    private readonly volatileFields: readonly string[],
    order: readonly ResourceType[],
  ) {
    this.guardedTypes = order.filter((type) => this.definition(type)?.guardDeletions);
  }

  abstract prepare(types: readonly ResourceType[], signal?: AbortSignal): Promise<void>;
  abstract rewrite(record: ResourceRecord, ids: IdMap): ResourceRecord;
  abstract references(record: ResourceRecord): string[];
  /** The write context of one write. */
  protected abstract context(signal?: AbortSignal): C;
  /** Why a restore must never change or remove the live record, or undefined. */
  protected abstract protectedBecause(record: ResourceRecord): string | undefined;

  support(type: ResourceType): RestoreSupport {
    const definition = this.definition(type);
    if (!definition) return { create: false, update: false, delete: false, notes: [this.notWritten()] };
    return {
      create: definition.create !== undefined,
      update: definition.update !== undefined,
      delete: definition.remove !== undefined,
      notes: definition.notes ?? [],
    };
  }

  fingerprint(record: ResourceRecord): string {
    const writable = this.definition(record.type)?.writable;
    const data = writable ? writable(record.data) : omit(record.data, this.serverOwned);
    return contentHash(data, this.volatileFields);
  }

  naturalKey(record: ResourceRecord): string | null {
    return this.definition(record.type)?.naturalKey?.(record) ?? null;
  }

  live(record: ResourceRecord): LiveResource {
    const status = this.definition(record.type)?.status?.(record.data) ?? record.data.status;
    const protectedBecause = this.protectedBecause(record);
    return {
      id: record.id,
      name: record.name,
      fingerprint: this.fingerprint(record),
      key: this.naturalKey(record),
      ...(typeof status === 'string' ? { status } : {}),
      ...(protectedBecause ? { protectedBecause } : {}),
    };
  }

  managedBecause(record: ResourceRecord): string | null {
    return this.definition(record.type)?.managedBecause?.(record.data) ?? null;
  }

  guardDeletions(
    type: ResourceType,
    deleting: readonly LiveResource[],
    remaining: readonly LiveResource[],
    going: ReadonlySet<string>,
  ): Map<string, string> {
    return this.definition(type)?.guardDeletions?.(deleting, remaining, going) ?? new Map();
  }

  createdWith(type: ResourceType): { type: ResourceType; component: number } | null {
    return this.definition(type)?.createdWith ?? null;
  }

  sequence(type: ResourceType): ((a: ResourceRecord, b: ResourceRecord) => number) | null {
    return this.definition(type)?.sequence ?? null;
  }

  /**
   * @throws Error when the type's definition cannot make this write (callers check `support`);
   *   the provider's ProviderRequestError / ProviderAuthError
   */
  async apply(write: RestoreWrite, signal?: AbortSignal): Promise<RestoreWriteResult> {
    const type = write.action === 'delete' ? write.type : write.record.type;
    const definition = this.definition(type);
    const context = this.context(signal);
    switch (write.action) {
      case 'create': {
        if (!definition?.create) throw new Error(`${this.provider} restores cannot create ${type}`);
        return this.create(definition, write.record, context, write.with);
      }
      case 'update': {
        if (!definition?.update) throw new Error(`${this.provider} restores cannot update ${type}`);
        return { id: write.live.id, notes: await definition.update(write.record, write.live, context) };
      }
      case 'delete': {
        if (!definition?.remove) throw new Error(`${this.provider} restores cannot delete ${type}`);
        await definition.remove(write.live, context);
        return { id: write.live.id, notes: [] };
      }
    }
  }

  /**
   * Creates the object; when the provider's answer is lost (a 5xx, a connection dropped or cut),
   * looks for it (`definition.find`) before creating it again, so a creation the provider carried
   * out is not made twice: a found object is brought to the record as an update would. At most
   * CREATE_ATTEMPTS creations; types without `find` are not created again.
   * @throws the last creation's error
   */
  protected async create(
    definition: D,
    record: ResourceRecord,
    context: C,
    together: readonly string[],
  ): Promise<RestoreWriteResult> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        const created = await definition.create!(record, context, together);
        return {
          id: created.id,
          notes: created.notes ?? [],
          ...(created.renamed && { renamed: created.renamed }),
        };
      } catch (error) {
        if (!answerMayBeLost(error) || !definition.find || attempt >= CREATE_ATTEMPTS) throw error;
        const found = await definition.find(record, context);
        if (!found) continue;
        const live = this.live(found);
        const notes =
          definition.update && live.fingerprint !== this.fingerprint(record)
            ? await definition.update(record, live, context)
            : [];
        return { id: found.id, notes };
      }
    }
  }

  protected definition(type: ResourceType): D | undefined {
    return this.definitions[type];
  }

  private notWritten(): string {
    return `A restore does not write this type: set it again in ${this.provider} after the restore if it changed`;
  }
}
