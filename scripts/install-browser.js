#!/usr/bin/env node
/**
 * `npm ci`'s browser step (package.json `postinstall`): PDF reports need a Chromium. Debian's
 * `chromium` (or CHROMIUM_PATH) is kept where it exists; otherwise puppeteer's own Chrome for
 * Testing is fetched into puppeteer's cache folder, where src/platform/config/chromium-path.ts finds it.
 * The step never fails the install and never hangs: the download host is probed first (10 s), the
 * download gets DOWNLOAD_TIMEOUT_MS, and any failure ends in a warning naming what to install.
 * PUPPETEER_SKIP_DOWNLOAD=true skips it. `.puppeteerrc.json` keeps puppeteer's own postinstall
 * off: that one fails the install when the download does.
 */
/* global fetch, AbortSignal, URL, setTimeout, clearTimeout -- Node's, as in the browser */
/* eslint-disable no-restricted-properties -- an install step, not the service: npm's environment is its configuration */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

/** Chrome for Testing's download host (puppeteer's default; PUPPETEER_CHROME_DOWNLOAD_BASE_URL overrides it). */
const DOWNLOAD_BASE_URL =
  process.env.PUPPETEER_CHROME_DOWNLOAD_BASE_URL ??
  'https://storage.googleapis.com/chrome-for-testing-public';
/** How long the host may take to answer at all, milliseconds. */
const PROBE_TIMEOUT_MS = 10_000;
/** How long the download (about 170 MB) and unpacking may take, milliseconds. */
const DOWNLOAD_TIMEOUT_MS = 10 * 60_000;
const DEBIAN_CHROMIUM = '/usr/bin/chromium';

const say = (line) => process.stderr.write(`install-browser: ${line}\n`);

function giveUp(why) {
  say(`no browser fetched: ${why}.`);
  say('PDF reports will answer 503 and their tests skip until a Chromium is installed: on Debian or');
  say('Ubuntu `apt-get install chromium` (CHROMIUM_PATH names another), or run');
  say('`node scripts/install-browser.js` where storage.googleapis.com is reachable (README "Quick start").');
}

/** Whether the host answers at all; behind a proxy (which fetch does not use) the download itself decides. */
async function reachable() {
  if (process.env.HTTPS_PROXY || process.env.https_proxy || process.env.npm_config_https_proxy) return true;
  try {
    await fetch(DOWNLOAD_BASE_URL, { method: 'HEAD', signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    return true;
  } catch {
    return false;
  }
}

/** puppeteer's CLI installing its pinned Chrome, with `.puppeteerrc.json`'s skipDownload lifted for it. */
function download() {
  const cli = createRequire(import.meta.url).resolve('puppeteer/lib/cjs/puppeteer/node/cli.js');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, 'browsers', 'install', 'chrome'], {
      env: { ...process.env, PUPPETEER_SKIP_DOWNLOAD: 'false' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // The CLI prints its usage after an error: only its result line, or its first error line, is kept.
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), DOWNLOAD_TIMEOUT_MS);
    child.once('error', (error) => resolve(error.message));
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) say(`fetched ${output.trim()}`);
      const error = /^Error: .*$/m.exec(output)?.[0] ?? `exit code ${code}`;
      resolve(code === 0 ? null : signal ? `stopped after ${DOWNLOAD_TIMEOUT_MS / 60_000} min` : error);
    });
  });
}

const configured = process.env.CHROMIUM_PATH ?? DEBIAN_CHROMIUM;
if (/^(1|true)$/i.test(process.env.PUPPETEER_SKIP_DOWNLOAD ?? '')) {
  say('skipped (PUPPETEER_SKIP_DOWNLOAD)');
} else if (existsSync(configured)) {
  say(`using the Chromium at ${configured}`);
} else if (!(await reachable())) {
  giveUp(`${new URL(DOWNLOAD_BASE_URL).host} did not answer`);
} else {
  const failure = await download();
  if (failure) giveUp(`the download failed (${failure})`);
}
