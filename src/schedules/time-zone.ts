/** Canonical zone names of this runtime's ICU; aliases (`UTC`, `Asia/Kolkata` on some ICUs) are not listed. */
const CANONICAL_ZONES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('timeZone'));

/**
 * The shape of an IANA name (`Area/Location`, `UTC`, `Etc/GMT+5`): it starts with a letter, so
 * the UTC offsets (`+02:00`) that newer Intl versions accept as time zones never pass.
 */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+){0,2}$/;

/**
 * True when `value` names an IANA time zone this runtime knows (spec "Schedule": timezone is
 * an IANA time zone name): a canonical name, or an alias that Intl accepts. Fixed offsets are
 * refused: a schedule in `+01:00` would silently ignore the daylight-saving rules of the
 * place the admin means.
 */
export function isIanaTimeZone(value: string): boolean {
  if (value.length > 64 || !ZONE_NAME.test(value)) return false;
  if (CANONICAL_ZONES.has(value)) return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}
