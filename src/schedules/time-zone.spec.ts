import { describe, expect, it } from '@jest/globals';
import { isIanaTimeZone as sut } from './time-zone.js';

describe('isIanaTimeZone', () => {
  it.each(['Europe/Berlin', 'America/New_York', 'America/Argentina/Buenos_Aires', 'Etc/GMT+5'])(
    'accepts the canonical name %s',
    (zone) => expect(sut(zone)).toBe(true),
  );

  it.each(['UTC', 'Asia/Kolkata', 'Asia/Calcutta', 'US/Eastern'])(
    'accepts %s, canonical or an alias depending on the ICU version',
    (zone) => expect(sut(zone)).toBe(true),
  );

  it.each(['+02:00', '-05:00', '+0200', 'Z', '', ' Europe/Berlin', 'Mars/Olympus_Mons', 'Europe/Berlin/x/y'])(
    'refuses %j (offsets, unknown names, anything not shaped like a zone name)',
    (value) => expect(sut(value)).toBe(false),
  );
});
