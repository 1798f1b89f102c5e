import { describe, expect, it } from 'vitest';
import { consoleConfig, DEFAULT_UNREAD_POLL_SECONDS } from './console-config';

describe('consoleConfig', () => {
  it('keeps what the server named', () => {
    expect(consoleConfig({ apiUrl: 'https://api.example', unreadPollSeconds: 2 })).toEqual({
      apiUrl: 'https://api.example',
      unreadPollSeconds: 2,
    });
  });

  it('falls back to the development API and the 30 s poll without a server config', () => {
    expect(consoleConfig(null)).toEqual({
      apiUrl: 'http://localhost:3000',
      unreadPollSeconds: DEFAULT_UNREAD_POLL_SECONDS,
    });
    expect(DEFAULT_UNREAD_POLL_SECONDS).toBe(30);
  });

  it('refuses a poll that is not a positive finite number of seconds', () => {
    for (const unreadPollSeconds of [0, -5, Number.NaN, '2', null])
      expect(consoleConfig({ apiUrl: 'x', unreadPollSeconds }).unreadPollSeconds).toBe(30);
  });
});
