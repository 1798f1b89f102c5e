import type { IncomingMessage } from 'node:http';

/** Largest form body read, bytes: the interaction forms hold an e-mail address and a code. */
const MAX_FORM_BYTES = 4096;

/**
 * The fields of an `application/x-www-form-urlencoded` body (the interaction pages' forms post
 * that; the API's parser reads JSON only). Anything else, or a body over 4 KB, gives no fields.
 */
export async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const type = (req.headers['content-type'] ?? '').split(';', 1)[0].trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') return new URLSearchParams();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) return new URLSearchParams();
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}
