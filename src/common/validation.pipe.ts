import { ValidationPipe, type ValidationError as ClassValidationError } from '@nestjs/common';
import { ValidationError } from './errors.js';

function flatten(errors: ClassValidationError[], parent = ''): Array<{ field: string; message: string }> {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => ({ field, message }));
    return [...own, ...flatten(error.children ?? [], field)];
  });
}

/**
 * Global DTO validation: unknown fields are rejected (no mass assignment), values are
 * converted to the DTO's types, and a 400 `validation_failed` lists every bad field.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    exceptionFactory: (errors) => {
      const details = flatten(errors);
      return new ValidationError(details.map((d) => d.message).join('; ') || 'Invalid request', details);
    },
  });
}
