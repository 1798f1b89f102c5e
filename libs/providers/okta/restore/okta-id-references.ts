import { idRewriter } from '@libs/providers/kit/id-rewriter.js';

/**
 * Okta object ids: 20 characters of [0-9A-Za-z] (`00g1a2b3c4d5e6f7g8h9`), found wherever they
 * stand in a string: alone, in record ids `<groupId>:<userId>`, in expression language
 * (`isMemberOfAnyGroup("00g...")`) or in ORNs (`orn:okta:directory:00o...:groups:00g...`).
 */
const OKTA_ID = /(?<![0-9A-Za-z])[0-9A-Za-z]{20}(?![0-9A-Za-z])/g;

/** Okta's ids rewritten and found (kit id-rewriter.ts). */
export const { rewriteIds, rewriteRecord, referencedIds } = idRewriter(OKTA_ID);
