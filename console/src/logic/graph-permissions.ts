/**
 * The Microsoft Graph application permissions an API error names as missing, in its order, or an
 * empty list when it names none. The API refuses an Entra ID connection whose app registration
 * lacks a permission with a message of this form (libs/providers/entra/entra-permissions.ts):
 * "…lacks the application permission(s) A, B (Microsoft Graph, admin consent granted) that a
 * backup needs". Permission names are Graph's dotted names (`User.Read.All`).
 */
export function missingGraphPermissions(message: string | null | undefined): string[] {
  const listed = /lacks the application permissions? (.+?) \(Microsoft Graph/.exec(message ?? '')?.[1];
  if (!listed) return [];
  return listed
    .split(', ')
    .map((name) => name.trim())
    .filter((name) => /^[A-Za-z][\w.-]*$/.test(name));
}
