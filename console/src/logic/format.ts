/** Bytes in binary units as people read them: 0 B, 1.5 KiB, 12.3 MiB (one decimal from KiB up). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}

/** An ISO 8601 instant in the reader's locale and zone, or "—" for none. */
export function formatInstant(iso: string | null | undefined, timeZone?: string): string {
  if (!iso) return '—';
  return new Intl.DateTimeFormat(undefined, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone,
  }).format(new Date(iso));
}

/** A share as a whole percentage: 0.953 -> "95 %". */
export function formatPercent(ratio: number): string {
  return `${Math.round(ratio * 100)} %`;
}

/** A connection's display name: its org name, else its org URL's host. */
export function connectionName(connection: { org_name?: string | null; org_url: string }): string {
  if (connection.org_name) return connection.org_name;
  try {
    return new URL(connection.org_url).host;
  } catch {
    return connection.org_url;
  }
}

/** The label of a provider id (spec "Connections"). */
export function providerLabel(provider: string): string {
  return (
    { okta: 'Okta', okta_workflows: 'Okta Workflows', entra_id: 'Microsoft Entra ID' }[provider] ?? provider
  );
}

/** A count with its noun in the right number, the count grouped: 1 change, 10,000 changes (English plural rules). */
export function formatCount(count: number, noun: string): string {
  const plural = new Intl.PluralRules('en').select(count) === 'one' ? noun : `${noun}s`;
  return `${count.toLocaleString('en')} ${plural}`;
}

/** How many objects a backup holds: the sum of its `resource_counts`, grouped as in English ("1,204"). */
export function formatObjectCount(resourceCounts: Record<string, number>): string {
  return Object.values(resourceCounts)
    .reduce((a, b) => a + b, 0)
    .toLocaleString('en');
}
