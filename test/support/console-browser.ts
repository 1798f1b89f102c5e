import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM } from './tools.js';

const CONSOLE_DIR = resolve(process.cwd(), 'console');
const SCREENSHOT_DIR = resolve(process.cwd(), 'docs/console');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Builds the console (console/dist) when it is missing or older than a file of console/src,
 * index.html or the Vite config, so the browser tests always drive the current sources. Test
 * files of one run start in parallel workers: the first takes a lock directory (mkdir is atomic)
 * and builds; the others wait for it, then find the build fresh (Vite refuses a second build of
 * the same project while one runs).
 * @throws Error when another build holds the lock for over 5 minutes
 */
export function buildConsoleIfStale(): void {
  const lock = join(CONSOLE_DIR, '.build-lock');
  const deadline = Date.now() + 5 * 60_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`the console build lock ${lock} was held for 5 minutes`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
    }
  }
  try {
    if (!consoleBuildIsFresh()) {
      // Jest sets NODE_ENV=test, which would give React's development build.
      execFileSync('npm', ['--prefix', CONSOLE_DIR, 'run', 'build', '--silent'], {
        stdio: 'pipe',
        env: { ...process.env, NODE_ENV: 'production' },
      });
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Whether console/dist is newer than every source the build reads. */
function consoleBuildIsFresh(): boolean {
  const built = join(CONSOLE_DIR, 'dist/index.html');
  const sources = Math.max(
    newestSource(join(CONSOLE_DIR, 'src')),
    statSync(join(CONSOLE_DIR, 'index.html')).mtimeMs,
    statSync(join(CONSOLE_DIR, 'vite.config.ts')).mtimeMs,
  );
  return existsSync(built) && statSync(built).mtimeMs >= sources;
}

/** The tests' Chromium (Debian's, else the one npm ci fetched for puppeteer), headless. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/**
 * Runs axe-core (WCAG 2.x A and AA rules) in the page and returns the serious and critical
 * violations, each with the elements it found.
 */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  await settled(page);
  const loaded = await page.evaluate(() => 'axe' in globalThis);
  if (!loaded) {
    const source = readFileSync(resolve(process.cwd(), 'node_modules/axe-core/axe.min.js'), 'utf8');
    await page.addScriptTag({ content: source });
  }
  const violations = await page.evaluate(async () => {
    // Runs in the page: axe-core's global, over the whole document.
    const { axe, document } = globalThis as unknown as {
      axe: { run: (context: unknown, options: object) => Promise<{ violations: AxeViolation[] }> };
      document: unknown;
    };
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return result.violations.map(({ id, impact, help, nodes }) => ({
      id,
      impact,
      help,
      nodes: nodes.map((node) => ({ target: node.target })),
    }));
  });
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}

/** With CONSOLE_SCREENSHOTS=1, saves the page as docs/console/<name>.png for docs/console.md. */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.CONSOLE_SCREENSHOTS !== '1') return;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await settled(page);
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: false });
}

/**
 * Waits for every CSS transition and animation running in the page to end (a modal fading in, a
 * button's colour after it is enabled): axe measures colour contrast from what is painted, so a
 * half-faded control reads as low contrast, and a screenshot would catch it half drawn.
 */
async function settled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const { document } = globalThis as unknown as {
      document: { getAnimations(): Array<{ finished: Promise<unknown> }> };
    };
    await Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => null)));
  });
}

/** The console's two themes, as the operating system asks for them (`prefers-color-scheme`). */
export const COLOR_SCHEMES = ['light', 'dark'] as const;

/**
 * axe-core's serious and critical violations in each theme: the page is switched through the
 * emulated `prefers-color-scheme` (the console follows the system until a person picks a theme),
 * checked, and left in the light theme. Each violation names its theme.
 */
export async function seriousAxeViolationsInThemes(
  page: Page,
): Promise<Array<AxeViolation & { scheme: (typeof COLOR_SCHEMES)[number] }>> {
  const found: Array<AxeViolation & { scheme: (typeof COLOR_SCHEMES)[number] }> = [];
  for (const scheme of [...COLOR_SCHEMES].reverse()) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForFunction(
      (wanted) =>
        (
          globalThis as unknown as {
            document: { documentElement: { getAttribute(name: string): string | null } };
          }
        ).document.documentElement.getAttribute('data-mantine-color-scheme') === wanted,
      scheme,
    );
    for (const violation of await seriousAxeViolations(page)) found.push({ ...violation, scheme });
  }
  return found;
}

/**
 * How far the page scrolls sideways at a viewport `width` pixels wide (0 when it fits; a wide
 * table in its own scroll container does not count), with the viewport put back afterwards.
 * A screen usable on a 390 px phone answers 0.
 */
export async function horizontalOverflowAt(page: Page, width: number): Promise<number> {
  const before = page.viewportSize();
  await page.setViewportSize({ width, height: 844 });
  await settled(page);
  const overflow = await page.evaluate(() => {
    const root = (
      globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }
    ).document.documentElement;
    return Math.max(0, root.scrollWidth - root.clientWidth);
  });
  if (before) await page.setViewportSize(before);
  return overflow;
}
