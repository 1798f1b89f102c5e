/** `/Date(1647536088205)/`: how Graph PowerShell objects serialized by ConvertTo-Json write a DateTime. */
const DOTNET_DATE = /^\/Date\((-?\d+)\)\/$/;

/**
 * A Graph PowerShell object (as ConvertTo-Json writes it) as Graph's own JSON: PascalCase
 * member names in camelCase (the SDK's models are Graph's properties with the first letter
 * raised), `/Date(ms)/` as an ISO 8601 instant (Graph's `Edm.DateTimeOffset`, in UTC), and the
 * response annotations `@odata.context` / `<name>@odata.context` dropped (they belong to the
 * answer the export came from, not to the object); `@odata.type` is kept.
 */
export function toGraphJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toGraphJson);
  if (typeof value === 'string') {
    const date = DOTNET_DATE.exec(value);
    return date ? new Date(Number(date[1])).toISOString() : value;
  }
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    if (key.endsWith('@odata.context')) continue;
    out[key.startsWith('@') ? key : camelCase(key)] = toGraphJson(member);
  }
  return out;
}

function camelCase(name: string): string {
  return name.charAt(0).toLowerCase() + name.slice(1);
}
