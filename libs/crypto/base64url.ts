/** Unpadded base64url (RFC 4648, section 5): safe in dotted tokens, JSON and object keys. */
export function encodeBase64Url(bytes: Buffer): string {
  return bytes.toString('base64url');
}

/**
 * Strict inverse of {@link encodeBase64Url}: undefined unless `text` is exactly what encoding the
 * decoded bytes gives back. Node's decoder silently skips bad characters and ignores the spare
 * bits of the last character, so without this check two different strings could carry the same
 * bytes and an altered character could go unnoticed.
 */
export function decodeBase64Url(text: string): Buffer | undefined {
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? bytes : undefined;
}
