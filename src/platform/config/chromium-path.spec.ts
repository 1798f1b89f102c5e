import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultChromiumPath, puppeteerChrome } from './chromium-path.js';

describe('the Chromium that renders reports', () => {
  let dir: string;
  const cache = () => join(dir, 'puppeteer');

  /** A file where puppeteer puts Chrome for Testing `version`, as its CLI leaves it. */
  function fetched(version: string): string {
    const folder = join(cache(), 'chrome', `linux-${version}`, 'chrome-linux64');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'chrome'), '');
    return join(folder, 'chrome');
  }

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'chromium-path-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("keeps Debian's Chromium where it is installed, even beside a fetched Chrome", () => {
    const debian = join(dir, 'chromium');
    writeFileSync(debian, '');
    fetched('148.0.7778.97');
    expect(defaultChromiumPath(debian, cache())).toBe(debian);
  });

  it('falls back to the newest Chrome puppeteer fetched, by version number, not by text', () => {
    fetched('99.0.4844.51');
    const newest = fetched('148.0.7778.97');
    mkdirSync(join(cache(), 'chrome', 'linux-150.0.1.0'), { recursive: true }); // unpacking, no binary yet
    expect(puppeteerChrome(cache())).toBe(newest);
    expect(defaultChromiumPath(join(dir, 'no-chromium'), cache())).toBe(newest);
  });

  it("names Debian's path when there is neither, so that reports say what is missing", () => {
    expect(puppeteerChrome(cache())).toBeUndefined();
    expect(defaultChromiumPath(join(dir, 'no-chromium'), cache())).toBe(join(dir, 'no-chromium'));
  });
});
