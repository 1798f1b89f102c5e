import { existsSync } from 'node:fs';
import { HttpStatus, Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { Browser } from 'puppeteer';
import { ApiError } from '@app/common/errors.js';
import { APP_CONFIG } from '@app/platform/config/config.module.js';
import type { AppConfig } from '@app/platform/config/app-config.js';

/** The browser is closed after this long without a render (docs/export.md: "closed after a minute idle"). */
const IDLE_MS = 60_000;
/** Pages rendering at once; more wait their turn. */
const MAX_PAGES = 2;
/** Longest a render may take before it is abandoned with 503. */
const RENDER_TIMEOUT_MS = 30_000;
/**
 * Chromium's flags for rendering: headless as a service (no GPU, a small /dev/shm), and no way
 * out to any network. CDP request interception does not see WebSocket handshakes or WebRTC's ICE
 * traffic, so the network itself is closed: every host name (IP literals included) resolves to
 * nothing, every connection is sent to a proxy on the discard port with loopback no longer
 * bypassing it, and WebRTC may use no UDP but through that proxy (Chromium's command-line
 * switches `--host-resolver-rules`, `--proxy-server`, `--proxy-bypass-list=<-loopback>`,
 * `--webrtc-ip-handling-policy`).
 */
export const CHROMIUM_ARGS: readonly string[] = [
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--host-resolver-rules=MAP * ~NOTFOUND',
  '--proxy-server=127.0.0.1:9',
  '--proxy-bypass-list=<-loopback>',
  '--force-webrtc-ip-handling-policy',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
];

/**
 * What a rendered page may load (Content Security Policy Level 3, W3C): inline styles and `data:`
 * images, nothing else (no script, no connection, no frame, no font or style from elsewhere).
 */
export const REPORT_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

/**
 * `html` with REPORT_CSP as the first element of its head, before anything that could load.
 * @throws Error when the document has no `<head>` (every report template writes one)
 */
export function withReportCsp(html: string): string {
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (!head) throw new Error('A report document must have a <head> for its Content-Security-Policy');
  const at = head.index + head[0].length;
  return `${html.slice(0, at)}<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">${html.slice(at)}`;
}

/**
 * Whether Chromium may run its sandbox: never as root (Chromium refuses: "Running as root without
 * --no-sandbox is not supported", crbug.com/638180); else it needs unprivileged user namespaces
 * (Debian's chromium ships no setuid helper), which `open` finds out by trying.
 */
export function sandboxPossible(uid = process.getuid?.()): boolean {
  return uid !== 0;
}

/** 503 `report_unavailable`: the PDF cannot be made here now (docs/export.md). */
export class ReportUnavailableError extends ApiError {
  constructor(why: string) {
    super(HttpStatus.SERVICE_UNAVAILABLE, 'report_unavailable', `The report cannot be rendered: ${why}`);
  }
}

/**
 * HTML to PDF with puppeteer driving the operator's Chromium (CHROMIUM_PATH; the package never
 * downloads a browser, `.puppeteerrc.json`). One browser per process, started at the first
 * render and closed after a minute idle; at most MAX_PAGES at once; each render bounded by
 * RENDER_TIMEOUT_MS. A page runs no JavaScript, loads nothing (request interception, REPORT_CSP)
 * and reaches no network (CHROMIUM_ARGS); Chromium keeps its sandbox unless it cannot have one
 * here (sandboxPossible, or a sandboxed start that fails), which is logged.
 */
@Injectable()
export class ReportRenderer implements OnApplicationShutdown {
  private readonly logger = new Logger(ReportRenderer.name);
  private browser: Promise<Browser> | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private busy = 0;
  private readonly waiting: Array<() => void> = [];
  /** False once Chromium could not start sandboxed here: later starts go without. */
  private sandbox = sandboxPossible();

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
        // Reports need no script; a template slip that let markup through must not run any.
        await page.setJavaScriptEnabled(false);
        // Reports are self-contained: nothing may be fetched while rendering (SSRF).
        await page.setRequestInterception(true);
        page.on(
          'request',
          (request) => void (request.url().startsWith('data:') ? request.continue() : request.abort()),
        );
        await page.setContent(withReportCsp(html), { waitUntil: 'load', timeout: RENDER_TIMEOUT_MS });
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
      this.browser = this.launch(path).catch((error: Error) => {
        this.browser = undefined;
        throw new ReportUnavailableError(`Chromium at ${path} did not start (${error.message})`);
      });
    }
    return this.browser;
  }

  /** Starts Chromium, sandboxed when it can be; a sandboxed start that fails is retried without, once. */
  private async launch(path: string): Promise<Browser> {
    const { default: puppeteer } = await import('puppeteer');
    const start = (sandbox: boolean) =>
      puppeteer.launch({
        executablePath: path,
        headless: true,
        args: sandbox ? [...CHROMIUM_ARGS] : ['--no-sandbox', ...CHROMIUM_ARGS],
      });
    if (!this.sandbox) return start(false);
    try {
      return await start(true);
    } catch (error) {
      this.logger.warn(
        `Chromium could not start sandboxed (no unprivileged user namespaces here?): ${(error as Error).message.split('\n')[0]}; rendering without its sandbox (docs/export.md)`,
      );
      this.sandbox = false;
      return start(false);
    }
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
