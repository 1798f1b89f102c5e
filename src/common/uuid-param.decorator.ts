import { Param, ParseUUIDPipe } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';

/**
 * A uuid path parameter: `@UuidParam('id') id: string` is `@Param('id', ParseUUIDPipe)` (anything
 * else is a 400 `validation_failed`) and documents the parameter as `format: uuid` in OpenAPI,
 * so the check and the description cannot part.
 */
export function UuidParam(name: string): ParameterDecorator {
  return (target, key, index) => {
    Param(name, ParseUUIDPipe)(target, key, index);
    if (key === undefined) return;
    const descriptor = Object.getOwnPropertyDescriptor(target, key);
    if (descriptor) ApiParam({ name, type: String, format: 'uuid' })(target, key, descriptor);
  };
}
