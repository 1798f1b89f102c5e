import { createParamDecorator, type ExecutionContext, HttpStatus } from '@nestjs/common';
import express, { type Request, type Response } from 'express';
import { ApiError, ValidationError } from '@app/common/errors.js';
import { payloadTooLarge } from './request-edge.js';

/**
 * Upload bodies read at once by one process. Each holds at most its route's limit in memory
 * (10 MiB for a Workflows export) while it is parsed, so four bound an upload burst to about
 * 40 MiB beside the replica's 512 MB (docs/operations.md "Sizing").
 */
export const MAX_CONCURRENT_UPLOADS = 4;

/** Retry-After (seconds) of an upload refused because every slot is taken: a 10 MiB upload takes about a second. */
export const UPLOAD_BUSY_RETRY_SECONDS = 5;

/** A counting semaphore that never waits: a slot is taken at once or refused. */
export class UploadSlots {
  private taken = 0;

  constructor(readonly size: number) {}

  /** @returns the function that frees the slot taken (idempotent), or null when all `size` are taken */
  tryTake(): (() => void) | null {
    if (this.taken >= this.size) return null;
    this.taken += 1;
    let freed = false;
    return () => {
      if (!freed) {
        freed = true;
        this.taken -= 1;
      }
    };
  }

  /** Slots in use now. */
  get inUse(): number {
    return this.taken;
  }
}

/** The process's upload slots, shared by every upload route. */
export const uploadSlots = new UploadSlots(MAX_CONCURRENT_UPLOADS);

/**
 * Reads an upload's body on demand, after the guards (authentication, rate limits, permission)
 * and the service's own checks have passed; until then not a byte of it is read. Resolves to
 * the bytes (decompressed when `Content-Encoding` asks, body-parser's `inflate`).
 * @throws ApiError 503 `service_unavailable` with `Retry-After` when MAX_CONCURRENT_UPLOADS are being read
 * @throws ApiError 413 `payload_too_large` past the route's limit, decompressed size included
 * @throws ValidationError (400) when the body is empty
 */
export type UploadBody = () => Promise<Buffer>;

/**
 * The upload route's body as an UploadBody, read as `application/octet-stream` up to `limit`
 * bytes. The request edge (installRequestEdge `uploads`) leaves such bodies unread and refuses a
 * declared `Content-Length` over the limit before any of this runs. The slot taken is held until
 * the response is done, while the bytes are in use.
 */
export const UploadedBody = createParamDecorator(
  (limit: number, context: ExecutionContext): UploadBody =>
    () =>
      readUpload(context.switchToHttp().getRequest<Request>(), context.switchToHttp().getResponse(), limit),
);

async function readUpload(req: Request, res: Response, limit: number): Promise<Buffer> {
  const free = uploadSlots.tryTake();
  if (!free) {
    res.setHeader('Retry-After', String(UPLOAD_BUSY_RETRY_SECONDS));
    throw new ApiError(
      HttpStatus.SERVICE_UNAVAILABLE,
      'service_unavailable',
      'Too many uploads are being read now; retry after Retry-After seconds',
    );
  }
  res.once('close', free);
  const raw = express.raw({ type: () => true, limit });
  await new Promise<void>((resolve, reject) =>
    raw(req, res, (error?: unknown) =>
      // A body that grows past the limit while read (chunked, inflated) is the 413 a declared
      // Content-Length over it gets at the edge.
      error ? reject(isTooLarge(error) ? payloadTooLarge(limit) : (error as Error)) : resolve(),
    ),
  );
  const body: unknown = req.body;
  if (!Buffer.isBuffer(body) || body.length === 0)
    throw new ValidationError('The body must be the export file, sent as application/octet-stream', [
      { field: 'body', message: 'no file' },
    ]);
  return body;
}

/** body-parser's error for a body past its limit. */
function isTooLarge(error: unknown): boolean {
  return (error as { type?: unknown }).type === 'entity.too.large';
}
