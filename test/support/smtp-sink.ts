import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/** One message as the sink received it. */
export interface SunkMessage {
  from: string;
  to: string[];
  /** The DATA section: headers, blank line, body (as sent, dot-stuffing undone). */
  data: string;
}

/** A plain SMTP server on 127.0.0.1 that accepts every message and keeps it. */
export interface SmtpSink {
  /** `smtp://127.0.0.1:<port>`: give it to the service as SMTP_URL. */
  url: string;
  messages: SunkMessage[];
  close(): Promise<void>;
}

/**
 * Just enough of SMTP (RFC 5321 §4.1: EHLO/HELO, MAIL, RCPT, DATA, RSET, NOOP, QUIT) for
 * nodemailer to deliver to; no STARTTLS is offered, so the session stays plain.
 */
export async function startSmtpSink(): Promise<SmtpSink> {
  const messages: SunkMessage[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.setEncoding('utf8');
    let buffer = '';
    let inData = false;
    let current: SunkMessage = { from: '', to: [], data: '' };
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 sink ESMTP');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end === -1) return;
          current.data = buffer.slice(0, end).replace(/^\.\./gm, '.');
          buffer = buffer.slice(end + 5);
          messages.push(current);
          current = { from: '', to: [], data: '' };
          inData = false;
          reply('250 OK queued');
          continue;
        }
        const newline = buffer.indexOf('\r\n');
        if (newline === -1) return;
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') reply('250 sink');
        else if (verb === 'MAIL') {
          current.from = /<([^>]*)>/.exec(line)?.[1] ?? '';
          reply('250 OK');
        } else if (verb === 'RCPT') {
          current.to.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
          reply('250 OK');
        } else if (verb === 'DATA') {
          inData = true;
          reply('354 End data with <CR><LF>.<CR><LF>');
        } else if (verb === 'QUIT') {
          reply('221 Bye');
          socket.end();
        } else reply('250 OK');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
