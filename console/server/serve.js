// `npm run console`: serves the built console. CONSOLE_PORT (default 5173), CONSOLE_HOST (default
// localhost: the API's session cookie reaches the console only under the same host name),
// API_URL (default http://localhost:3000), CONSOLE_UNREAD_POLL_SECONDS (how often the header reads the
// unread notifications count; default 30).
import { startConsoleServer } from './console-server.js';

const { url } = await startConsoleServer({
  port: Number(process.env.CONSOLE_PORT ?? 5173),
  host: process.env.CONSOLE_HOST ?? 'localhost',
  apiUrl: process.env.API_URL ?? 'http://localhost:3000',
  unreadPollSeconds: process.env.CONSOLE_UNREAD_POLL_SECONDS
    ? Number(process.env.CONSOLE_UNREAD_POLL_SECONDS)
    : undefined,
});
console.log(`Console on ${url}/ (API ${process.env.API_URL ?? 'http://localhost:3000'})`);
