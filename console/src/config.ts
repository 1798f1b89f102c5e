/** What the console's server says about where things are (`/config.json`). */
export interface ConsoleConfig {
  apiUrl: string;
}

/** Reads /config.json; in `vite dev` without it, the API is assumed at http://localhost:3000. */
export async function loadConfig(): Promise<ConsoleConfig> {
  try {
    const response = await fetch('/config.json', { cache: 'no-store' });
    if (response.ok) return (await response.json()) as ConsoleConfig;
  } catch {
    // no server config: development defaults below
  }
  return { apiUrl: 'http://localhost:3000' };
}
