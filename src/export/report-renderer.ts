import { existsSync } from 'node:fs';
import { HttpStatus, Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { Browser } from 'puppeteer';
import { ApiError } from '@app/common/errors.js';
import { APP_CONFIG } from '@app/config/config.module.js';
import type { AppConfig } from '@app/config/app-config.js';

/** The browser is closed after this long without a render (issue 28: "closed after a minute idle"). */
const IDLE_MS = 60_000;
/** Pages rendering at once; more wait their turn. */
const MAX_PAGES = 2;
/** Longest a render may take before it is abandoned with 503. */
const RENDER_TIMEOUT_MS = 30_000;
/** Flags Debian's Chromium needs to run headless as a service (no sandbox user namespace, no GPU, small /dev/shm). */
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'];

/** 503 `report_unavailable`: the PDF cannot be made here now (issue 28). */
export class ReportUnavailableError extends ApiError {
  constructor(why: string) {
    super(HttpStatus.SERVICE_UNAVAILABLE, 'report_unavailable', `The report cannot be rendered: ${why}`);
  }
}

/**
 * HTML to PDF with puppeteer driving the operator's Chromium (CHROMIUM_PATH; the package never
 * downloads a browser, `.puppeteerrc.json`). One browser per process, started at the first
 * render and closed after a minute idle; at most MAX_PAGES at once; each render bounded by
 * RENDER_TIMEOUT_MS.
 */
@Injectable()
export class ReportRenderer implements OnApplicationShutdown {
  private readonly logger = new Logger(ReportRenderer.name);
  private browser: Promise<Browser> | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private busy = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /**
   * @param html a whole document (its own CSS; no outside resource is fetched)
   * @returns the PDF bytes, A4 with the document's margins
   * @throws ReportUnavailableError when Chromium is missing, does not start, or the render times out
   */
  async render(html: string): Promise<Buffer> {
    await this.slot();
    try {
      const browser = await this.open();
      const page = await browser.newPage();
      try {
        // Reports are self-contained: nothing may be fetched while rendering (SSRF).
        await page.setRequestInterception(true);
        page.on(
          'request',
          (request) => void (request.url().startsWith('data:') ? request.continue() : request.abort()),
        );
        await page.setContent(html, { waitUntil: 'load', timeout: RENDER_TIMEOUT_MS });
        const pdf = await page.pdf({
          format: 'A4',
          printBackground: true,
          displayHeaderFooter: true,
          headerTemplate: '<span></span>',
          footerTemplate:
            '<div style="font-size:8px;width:100%;text-align:center;color:#666"><span class="pageNumber"></span> / <span class="totalPages"></span></div>',
          margin: { top: '18mm', bottom: '18mm', left: '16mm', right: '16mm' },
          timeout: RENDER_TIMEOUT_MS,
        });
        return Buffer.from(pdf);
      } finally {
        await page.close().catch(() => undefined);
      }
    } catch (error) {
      if (error instanceof ReportUnavailableError) throw error;
      this.logger.warn(`Rendering a report failed: ${(error as Error).message}`);
      throw new ReportUnavailableError('Chromium did not render it in time; try again');
    } finally {
      this.release();
    }
  }

  /**
   * Starts the browser now, if it is not running, so that it launches while the report's data is
   * gathered rather than after; it is closed after a minute idle as after a render. Never throws:
   * a browser that cannot start is reported by `render`.
   */
  warmUp(): void {
    if (this.browser || this.busy > 0) return;
    try {
      this.open().catch(() => undefined);
    } catch {
      return;
    }
    this.closeWhenIdle();
  }

  async onApplicationShutdown(): Promise<void> {
    clearTimeout(this.idleTimer);
    await this.close();
  }

  private open(): Promise<Browser> {
    clearTimeout(this.idleTimer);
    if (!this.browser) {
      const path = this.config.CHROMIUM_PATH;
      if (!existsSync(path))
        throw new ReportUnavailableError(`Chromium is not installed at ${path} (set CHROMIUM_PATH)`);
      this.browser = import('puppeteer')
        .then(({ default: puppeteer }) =>
          puppeteer.launch({ executablePath: path, headless: true, args: CHROMIUM_ARGS }),
        )
        .catch((error: Error) => {
          this.browser = undefined;
          throw new ReportUnavailableError(`Chromium at ${path} did not start (${error.message})`);
        });
    }
    return this.browser;
  }

  private async close(): Promise<void> {
    const browser = this.browser;
    this.browser = undefined;
    await (await browser?.catch(() => undefined))?.close().catch(() => undefined);
  }

  private async slot(): Promise<void> {
    if (this.busy >= MAX_PAGES) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.busy += 1;
  }

  private release(): void {
    this.busy -= 1;
    this.waiting.shift()?.();
    if (this.busy === 0) this.closeWhenIdle();
  }

  private closeWhenIdle(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => void this.close(), IDLE_MS);
    this.idleTimer.unref();
  }
}
