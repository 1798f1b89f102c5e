import type { Operation } from 'fast-json-patch';
import type { ChangePart } from '@libs/diff/change-facts.js';

import type { FlowCard } from './flow-cards.js';

/** RFC 6901 §4: `~1` is `/`, `~0` is `~`. */
function unescapePointer(token: string): string {
  return token.replaceAll('~1', '/').replaceAll('~0', '~');
}

/**
 * A flow's change card by card: the patch's operations grouped by the card they touch
 * (`/cards/<address>#<n>/...`), each card named by its address and title and said added, removed
 * or modified. Operations outside the cards (name, schedule) are not parts. Empty for other types.
 */
export function flowCardChanges(
  type: string,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  patch: readonly Operation[],
): ChangePart[] {
  if (type !== 'workflow') return [];
  const cardsBefore = (before.cards ?? {}) as Record<string, FlowCard>;
  const cardsAfter = (after.cards ?? {}) as Record<string, FlowCard>;
  const parts = new Map<string, ChangePart>();
  for (const operation of patch) {
    const match = /^\/cards\/([^/]+)/.exec(operation.path);
    if (!match) continue;
    const key = unescapePointer(match[1]);
    let part = parts.get(key);
    if (!part) {
      const action = !(key in cardsBefore) ? 'added' : !(key in cardsAfter) ? 'removed' : 'modified';
      part = {
        kind: 'card',
        key,
        name: (cardsAfter[key] ?? cardsBefore[key])?.name ?? null,
        action,
        changes: [],
      };
      parts.set(key, part);
    }
    part.changes.push(operation);
  }
  return [...parts.values()];
}
