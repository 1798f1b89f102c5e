import { describe, expect, it, jest } from '@jest/globals';
import { type ArgumentsHost, Logger } from '@nestjs/common';
import { HttpExceptionFilter } from './http-exception.filter.js';

/** An Express request and response as the filter reads and writes them. */
function httpHost(): { host: ArgumentsHost; sent: { status?: number; body?: unknown } } {
  const sent: { status?: number; body?: unknown } = {};
  const response = {
    setHeader: () => undefined,
    status(code: number) {
      sent.status = code;
      return this;
    },
    json(body: unknown) {
      sent.body = body;
      return this;
    },
  };
  const request = { headers: {}, path: '/api/backup/upload' };
  const host = {
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => response }),
  } as unknown as ArgumentsHost;
  return { host, sent };
}

describe('HttpExceptionFilter', () => {
  const sut = new HttpExceptionFilter(() => 'https://api.example.com/.well-known/oauth-protected-resource');

  it("answers raw-body's request.aborted (the client closed the connection mid-body) 400, logging no error", () => {
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    // raw-body's error for a body the client stopped sending: status 400, type request.aborted.
    const aborted = Object.assign(new Error('request aborted'), { status: 400, type: 'request.aborted' });
    const { host, sent } = httpHost();

    sut.catch(aborted, host);

    expect(sent.status).toBe(400);
    expect(sent.body).toMatchObject({ error: 'Request aborted by the client', code: 'validation_failed' });
    expect(logged).not.toHaveBeenCalled();
    logged.mockRestore();
  });

  it('answers an unknown error 500 without its message, and logs it once', () => {
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const { host, sent } = httpHost();

    sut.catch(new Error('secret detail'), host);

    expect(sent.status).toBe(500);
    expect(JSON.stringify(sent.body)).not.toContain('secret detail');
    expect(logged).toHaveBeenCalledTimes(1);
    logged.mockRestore();
  });
});
