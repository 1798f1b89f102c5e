import type { ResourceRecord } from '@libs/records/resource-record.js';

/**
 * Into another org, why a record to write is left alone instead, or null: it names (in its id, as
 * a policy rule names its policy, or in its data) one of the provider's own objects of the backed-up
 * org that the target has no twin of (`absent`, TypePlan.absent: an Okta default access policy of
 * an Identity Engine org moved into a Classic one, a first-party app). A restore never creates such
 * an object, so the provider would refuse the write (404): it is named and skipped, and writes once
 * the mapping pairs the object with one of the target's. An object left alone so joins `absent` in
 * turn (a brand naming a first-party app as its default app, then its pages; a directory-mastered user
 * naming the directory's app, then its memberships), as the provider would refuse what names it too.
 * @param references the record's references (ProviderRestorer.references)
 * @param absent backup object id -> its type
 */
export function absentNamed(
  record: ResourceRecord,
  references: readonly string[],
  absent: ReadonlyMap<string, string>,
): string | null {
  if (absent.size === 0) return null;
  const named = [...record.id.split(':'), ...references].find((id) => absent.has(id));
  if (named === undefined) return null;
  return `Left alone: it names ${absent.get(named)} ${named}, the provider's own object in the backed-up org or an object left alone for naming one, which the target does not have and a restore never creates: pair it with one of the target's (mapping pairs) to write this`;
}
