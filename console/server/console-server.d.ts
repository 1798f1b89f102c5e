/** The console's static server (console-server.js), typed for the TypeScript tests that start it. */
export function startConsoleServer(options: {
  port: number;
  host: string;
  apiUrl: string;
  /** seconds between the header's reads of the unread notifications count (default 30) */
  unreadPollSeconds?: number;
}): Promise<{ url: string; close: () => Promise<void> }>;
