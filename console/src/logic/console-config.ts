/**
 * What the console's server says about where things are (`/config.json`, console/server/console-server.js):
 * the API's address, and how often the header asks for the unread notifications count.
 */
export interface ConsoleConfig {
  apiUrl: string;
  /** seconds between two reads of the unread count (the API has no push, so a light poll) */
  unreadPollSeconds: number;
}

/** The unread count's poll when the server names none: one light read every 30 s. */
export const DEFAULT_UNREAD_POLL_SECONDS = 30;

/** In `vite dev` without a server config, the API is assumed at http://localhost:3000. */
const DEVELOPMENT_API_URL = 'http://localhost:3000';

/**
 * The console's config from what `/config.json` answered (`raw`; null when there was none):
 * `apiUrl` as given, else the development default; `unreadPollSeconds` when a positive finite
 * number, else DEFAULT_UNREAD_POLL_SECONDS (a bad value must not make the badge poll in a loop).
 */
export function consoleConfig(raw: unknown): ConsoleConfig {
  const given = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const poll = given.unreadPollSeconds;
  return {
    apiUrl: typeof given.apiUrl === 'string' ? given.apiUrl : DEVELOPMENT_API_URL,
    unreadPollSeconds:
      typeof poll === 'number' && Number.isFinite(poll) && poll > 0 ? poll : DEFAULT_UNREAD_POLL_SECONDS,
  };
}
