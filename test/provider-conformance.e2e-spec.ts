import { existsSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { registeredProviderKinds } from '@libs/providers/registry.js';
import { describeProviderConformance, type ProviderHarness } from './support/provider-conformance.js';

/** The harness file of a kind: its name in kebab case (`entra_id`: `entra-id.ts`). */
const fileOf = (kind: string): string => kind.replaceAll('_', '-');

/**
 * Every registered provider meets the connector contract (docs/architecture.md, "Adding a
 * provider"): its harness is `test/support/conformance/<kind>.ts` (kebab case), exporting `harness`, found by
 * the kind's name, so the registry is the one list; a kind without one fails here.
 */
async function harnessOf(kind: string): Promise<ProviderHarness | undefined> {
  if (!existsSync(new URL(`./support/conformance/${fileOf(kind)}.ts`, import.meta.url))) return undefined;
  const module = (await import(`@test/support/conformance/${fileOf(kind)}.js`)) as {
    harness: ProviderHarness;
  };
  return module.harness;
}

for (const kind of registeredProviderKinds()) {
  const harness = await harnessOf(kind);
  if (harness) describeProviderConformance(harness);
  else
    describe(`provider conformance: ${kind}`, () => {
      it('has a conformance harness', () => {
        expect({ kind, harness: `test/support/conformance/${fileOf(kind)}.ts` }).toEqual({
          kind,
          harness: 'present',
        });
      });
    });
}
