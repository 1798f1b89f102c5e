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
