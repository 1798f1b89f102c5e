import type { FlopackFlo } from './flopack.js';

/** One card of a flow as a backup compares it: what the designer shows, without per-export ids. */
export interface FlowCard {
  address: string;
  /** the card's title (`Deactivate User`) */
  name: string;
  /** the connection placeholder it runs with, or null */
  connection: string | null;
  /** input values by the input's key */
  inputs: Record<string, unknown>;
}

type Method = NonNullable<FlopackFlo['data']['methods']>[number];

function cardOf(method: Method): FlowCard {
  const node = (method.node ?? {}) as {
    data?: { name?: unknown };
    model?: {
      config?: unknown;
      inputs?: { data?: Record<string, { key?: unknown; value?: { data?: unknown } }> };
    };
  };
  const inputs: Record<string, unknown> = {};
  for (const input of Object.values(node.model?.inputs?.data ?? {}))
    if (typeof input.key === 'string') inputs[input.key] = input.value?.data ?? null;
  return {
    address: method.address,
    name: typeof node.data?.name === 'string' ? node.data.name : method.address.split(':').pop()!,
    connection: typeof node.model?.config === 'string' ? node.model.config : null,
    inputs,
  };
}

/**
 * A flow's cards keyed `<address>#<n>` (the n-th card of that address in the flow, from 1): the
 * designer mints new card and input ids (`uuid`, input ids, pins) on every export, so a card is
 * known by what it is and where it stands among its kind, and its inputs by their keys (research
 * note §1.4, "Diffing"). Adding a card of another kind then changes no other card's key.
 */
export function flowCards(flo: FlopackFlo): Record<string, FlowCard> {
  const seen = new Map<string, number>();
  const cards: Record<string, FlowCard> = {};
  for (const method of flo.data.methods ?? []) {
    const n = (seen.get(method.address) ?? 0) + 1;
    seen.set(method.address, n);
    cards[`${method.address}#${n}`] = cardOf(method);
  }
  return cards;
}

/** The card address an API endpoint flow starts with (`root:kernel:http:<version>:accept`, "API Endpoint"). */
export function isApiEndpointFlow(flo: FlopackFlo): boolean {
  const first = flo.data.methods?.[0]?.address ?? '';
  return /^root:kernel:http:[^:]+:accept$/.test(first);
}
