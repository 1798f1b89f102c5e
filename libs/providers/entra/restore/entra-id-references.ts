import { idRewriter } from '@libs/providers/kit/id-rewriter.js';

/**
 * Entra object ids (and application ids, role definition ids, tenant ids): GUIDs, which Graph
 * writes in lowercase, found wherever they stand: alone, in record ids `<groupId>:<memberId>`, in
 * conditional access conditions, in `@odata.id` URLs. Random GUIDs do not collide with other text.
 */
const GUID = /(?<![0-9A-Fa-f-])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![0-9A-Fa-f-])/g;

/** Graph's ids rewritten and found (kit id-rewriter.ts). */
export const { rewriteRecord, referencedIds } = idRewriter(GUID);
