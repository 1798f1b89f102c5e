/**
 * The one form of an e-mail address the service compares and stores for invitations: trimmed,
 * Unicode NFC, lower case. `users.email` keeps what the person typed; its unique index is on
 * `lower(email)`, so lookups compare `lower(users.email)` with this form.
 */
export function normalizeEmail(email: string): string {
  return email.trim().normalize('NFC').toLowerCase();
}
