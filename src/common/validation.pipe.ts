import {
  type ArgumentMetadata,
  ValidationPipe,
  type ValidationError as ClassValidationError,
} from '@nestjs/common';
import { ValidationError } from './errors.js';

/**
 * Keys that reach an object's prototype when code copies a parsed body around (Object.assign,
 * spreads into lodash-style merges). JSON.parse keeps them as plain own keys, and
 * class-transformer drops them silently, so the whitelist alone would never report them.
 */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function flatten(errors: ClassValidationError[], parent = ''): Array<{ field: string; message: string }> {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => ({ field, message }));
    return [...own, ...flatten(error.children ?? [], field)];
  });
}

/** The path of the first prototype key anywhere in a parsed JSON value, or undefined. */
function prototypeKeyPath(value: unknown, parent = ''): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  for (const key of Object.keys(value)) {
    const path = parent ? `${parent}.${key}` : key;
    if (PROTOTYPE_KEYS.has(key)) return path;
    const nested = prototypeKeyPath((value as Record<string, unknown>)[key], path);
    if (nested) return nested;
  }
  return undefined;
}

/**
 * Global DTO validation: unknown fields are rejected (no mass assignment), prototype keys
 * (`__proto__`, `constructor`, `prototype`) in a body too, values are converted to the DTO's
 * types, and a 400 `validation_failed` lists every bad field.
 */
class StrictValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const path = metadata.type === 'body' ? prototypeKeyPath(value) : undefined;
    if (path) {
      const message = `property ${path} should not exist`;
      throw new ValidationError(message, [{ field: path, message }]);
    }
    return super.transform(value, metadata);
  }
}

/** The one validation pipe of the API (see StrictValidationPipe). */
export function createValidationPipe(): ValidationPipe {
  return new StrictValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    exceptionFactory: (errors) => {
      const details = flatten(errors);
      return new ValidationError(details.map((d) => d.message).join('; ') || 'Invalid request', details);
    },
  });
}
