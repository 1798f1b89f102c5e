import type { Response } from 'express';

/**
 * Whether a `Prefer` request header (RFC 7240 §2) asks for `respond-async` (§4.1): the client
 * accepts 202 and polls. Preferences are comma-separated, each with optional `;` parameters;
 * names are case-insensitive, and a request may carry the header more than once (joined by
 * Node with `, `).
 */
export function prefersRespondAsync(header: string | undefined): boolean {
  return (header ?? '')
    .split(',')
    .some((preference) => preference.split(/[;=]/)[0].trim().toLowerCase() === 'respond-async');
}

/**
 * The status and headers of an answer a client may have asked for asynchronously (RFC 7240):
 * 202 with `Location` (where to poll) and `Preference-Applied: respond-async` (§4.1) when the
 * work was queued, else 200; `Vary: Prefer` on both (§2), since the header chose the answer.
 * @param location the path to poll when the work was queued; null when answered now
 */
export function answerPreferred(response: Response, location: string | null): void {
  response.vary('Prefer');
  if (location === null) {
    response.status(200);
    return;
  }
  response.status(202);
  response.location(location);
  response.set('Preference-Applied', 'respond-async');
}
