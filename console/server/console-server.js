import { createServer } from 'node:http';
import { fileURLToPath, URL } from 'node:url';
import sirv from 'sirv';

/**
 * Starts an HTTP server for the built console (console/dist) that also answers `/config.json`
 * with `{ "apiUrl": ... }`, so one build works against any API. Unknown paths get index.html
 * (the client's routes). `unreadPollSeconds`, when given, goes into `/config.json` too: how often the
 * header reads the unread notifications count (the console's default, 30 s, otherwise).
 * @param {{ port: number, host: string, apiUrl: string, unreadPollSeconds?: number }} options
 * @returns {Promise<{ url: string, close: () => Promise<void> }>} the console's address, and how to stop it
 */
export function startConsoleServer({ port, host, apiUrl, unreadPollSeconds }) {
  const dist = fileURLToPath(new URL('../dist', import.meta.url));
  const files = sirv(dist, { single: true, etag: true });
  const config = JSON.stringify({ apiUrl: apiUrl.replace(/\/+$/, ''), unreadPollSeconds });
  const server = createServer((req, res) => {
    if (req.url === '/config.json') {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(config);
      return;
    }
    files(req, res);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      resolve({
        url: `http://${host}:${address.port}`,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}
