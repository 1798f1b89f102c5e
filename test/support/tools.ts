import { describe, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import { defaultChromiumPath } from '@app/platform/config/chromium-path.js';

/** The Chromium the tests render and browse with: CHROMIUM_PATH, else the service's own default. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? defaultChromiumPath();

/** What each machine tool the tests use is, and how to get it where it is missing. */
const TOOLS = {
  chromium: {
    present: () => existsSync(CHROMIUM),
    missing: `a Chromium at ${CHROMIUM} (apt-get install chromium, or npm ci where it can fetch puppeteer's Chrome)`,
  },
  pdftotext: {
    present: () => existsSync('/usr/bin/pdftotext'),
    missing: 'pdftotext (apt-get install poppler-utils)',
  },
} as const;

/** What the tools named lack on this machine, each with what to install; empty when all are there. */
export function missingTools(...names: Array<keyof typeof TOOLS>): string[] {
  return names.filter((name) => !TOOLS[name].present()).map((name) => TOOLS[name].missing);
}

/** The mark a skipped block's title carries, which the closing summary lists (summary-reporter.js). */
function skippedTitle(title: string, missing: string[]): string {
  return `${title} [skipped: needs ${missing.join(' and ')}]`;
}

/** `describe` when every tool named is present; else `describe.skip`, its title saying what is missing. */
export function describeWithTools(...names: Array<keyof typeof TOOLS>): typeof describe {
  const missing = missingTools(...names);
  if (missing.length === 0) return describe;
  return ((title: string, fn: () => void) =>
    describe.skip(skippedTitle(title, missing), fn)) as typeof describe;
}

/** `it` when every tool named is present; else `it.skip`, its title saying what is missing. */
export function itWithTools(...names: Array<keyof typeof TOOLS>): typeof it {
  const missing = missingTools(...names);
  if (missing.length === 0) return it;
  return ((title: string, fn: () => Promise<void>, timeout?: number) =>
    it.skip(skippedTitle(title, missing), fn, timeout)) as typeof it;
}
