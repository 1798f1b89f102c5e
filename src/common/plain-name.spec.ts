import { describe, expect, it } from '@jest/globals';
import { plainName } from './plain-name.js';

describe('plainName', () => {
  it('turns line breaks and tabs into one space, so no new line can start', () => {
    expect(plainName('Acme\r\nBcc: attacker@evil.example')).toBe('Acme Bcc: attacker@evil.example');
    expect(plainName('a\n\n\tb\u2028c\u2029d\u0085e\vf\fg')).toBe('a b c d e f g');
  });

  it('drops every other control character: C0, DEL, C1 and the bidirectional overrides', () => {
    expect(plainName('A\u0000c\u0007m\u001be\u007f\u009b')).toBe('Acme');
    expect(plainName('invoice\u202Egpj.exe\u2066x\u2069')).toBe('invoicegpj.exex');
  });

  it('trims, and keeps letters, accents, spaces and emoji as they are', () => {
    expect(plainName('  Équipe Zürich – 東京 🚀  ')).toBe('Équipe Zürich – 東京 🚀');
  });
});
