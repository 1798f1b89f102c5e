import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { ValidationError } from '@app/common/errors.js';

/**
 * The raw bytes of an upload route's body, which the request edge read as
 * `application/octet-stream` (installRequestEdge `uploads`).
 * @throws ValidationError when the request carried no file
 */
export const UploadedBytes = createParamDecorator((_data: unknown, context: ExecutionContext): Buffer => {
  const { body } = context.switchToHttp().getRequest<Request>();
  if (!Buffer.isBuffer(body) || body.length === 0)
    throw new ValidationError('The body must be the export file, sent as application/octet-stream', [
      { field: 'body', message: 'no file' },
    ]);
  return body;
});
