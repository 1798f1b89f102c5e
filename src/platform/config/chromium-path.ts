import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Debian's `chromium` package, which the image installs (Dockerfile) and is kept wherever it exists. */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/**
 * The Chrome for Testing that `npm ci` fetched for puppeteer where no Chromium was installed
 * (scripts/install-browser.js), in puppeteer's cache folder: `PUPPETEER_CACHE_DIR`, else
 * `~/.cache/puppeteer`, as `chrome/linux-<version>/chrome-linux64/chrome` (puppeteer's layout).
 * The newest version present wins; undefined when none is.
 */
export function puppeteerChrome(cacheDir: string = defaultCacheDir()): string | undefined {
  const builds = join(cacheDir, 'chrome');
  if (!existsSync(builds)) return undefined;
  return readdirSync(builds)
    .filter((name) => name.startsWith('linux-'))
    .sort((a, b) => b.localeCompare(a, 'en', { numeric: true }))
    .map((name) => join(builds, name, 'chrome-linux64', 'chrome'))
    .find((path) => existsSync(path));
}

/**
 * CHROMIUM_PATH's default: Debian's Chromium where it is installed, else puppeteer's fetched
 * Chrome, else Debian's path (missing: PDF reports answer 503 naming it, docs/export.md).
 */
export function defaultChromiumPath(debian: string = DEBIAN_CHROMIUM, cacheDir?: string): string {
  if (existsSync(debian)) return debian;
  return puppeteerChrome(cacheDir) ?? debian;
}

function defaultCacheDir(): string {
  return process.env.PUPPETEER_CACHE_DIR ?? join(homedir(), '.cache', 'puppeteer');
}
