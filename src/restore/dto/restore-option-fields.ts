import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean, IsOptional } from 'class-validator';
import { declaredRestoreOptions } from '@app/restore/restore-options.js';

/**
 * Declares on a restore DTO one flat boolean per restore option of the registered providers
 * (descriptor `restoreOptions`; Entra ID: `enforce`), as spec "Restore" has them: optional with
 * its default in the request body (`request`), always present in the restore returned
 * (`response`). Runs when the DTO's module loads.
 */
export function declareRestoreOptionFields(
  side: 'request' | 'response',
  target: abstract new () => object,
): void {
  for (const { name, default: fallback, declarations } of declaredRestoreOptions()) {
    const description = declarations
      .map(({ provider, option }) => `${provider.label}: ${option.description}`)
      .join(' ');
    if (side === 'response') {
      ApiProperty({ type: Boolean, description })(target.prototype, name);
      continue;
    }
    ApiProperty({ type: Boolean, required: false, default: fallback, description })(target.prototype, name);
    IsOptional()(target.prototype, name);
    IsBoolean()(target.prototype, name);
  }
}
