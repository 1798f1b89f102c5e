import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One message as it arrived: the raw bytes and what mailparser made of them. */
export interface ReceivedMail {
  raw: string;
  parsed: ParsedMail;
}

/** A real SMTP server (npm smtp-server) on 127.0.0.1 that keeps every message it accepts. */
export interface ParsedMailbox {
  /** `smtp://127.0.0.1:<port>`: give it to the service as SMTP_URL. */
  url: string;
  messages: ReceivedMail[];
  /** Waits until `count` messages match `filter` (at most `timeoutMs`), and returns them. */
  waitFor(
    filter: (mail: ReceivedMail) => boolean,
    count: number,
    timeoutMs?: number,
  ): Promise<ReceivedMail[]>;
  /**
   * Holds every message's DATA unanswered (as a slow relay does) until the returned function is
   * called; the messages are kept then.
   */
  hold(): () => void;
  close(): Promise<void>;
}

/** Starts the server without TLS or authentication (loopback only), parsing each message with mailparser. */
export async function startParsedMailbox(): Promise<ParsedMailbox> {
  const messages: ReceivedMail[] = [];
  let held: Promise<void> = Promise.resolve();
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        Promise.all([simpleParser(raw), held])
          .then(([parsed]) => parsed)
          .then(
            (parsed) => {
              messages.push({ raw, parsed });
              callback();
            },
            (error: Error) => callback(error),
          );
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async waitFor(filter, count, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.filter(filter);
        if (found.length >= count) return found;
        if (Date.now() > deadline) throw new Error(`${found.length} of ${count} e-mails arrived`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    hold() {
      let release!: () => void;
      held = new Promise<void>((resolve) => (release = resolve));
      return release;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
