/** The console's static server (console-server.js), typed for the TypeScript tests that start it. */
export function startConsoleServer(options: {
  port: number;
  host: string;
  apiUrl: string;
}): Promise<{ url: string; close: () => Promise<void> }>;
