import { execFileSync } from 'node:child_process';
import dgram from 'node:dgram';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import puppeteer from 'puppeteer';
import type { AppConfig } from '@app/platform/config/app-config.js';
import { CHROMIUM_ARGS, ReportRenderer, withReportCsp } from '@app/export/report-renderer.js';
import { reportDocument } from '@app/export/templates/layout.js';
import { CHROMIUM, describeWithTools } from './support/tools.js';

/** The text of a PDF, as poppler's pdftotext reads it. */
function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'renderer-'));
  try {
    writeFileSync(join(dir, 'r.pdf'), pdf);
    return execFileSync('pdftotext', [join(dir, 'r.pdf'), '-'], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Markup a template slip could let into a report: script, fetch, WebSocket, WebRTC, image, frame. */
const hostile = (http: number, udp: number) => `
<p id="js">script did not run</p>
<img src="http://127.0.0.1:${http}/img"><img src="http://localhost:${http}/img-name">
<link rel="stylesheet" href="http://127.0.0.1:${http}/link.css">
<div style="background:url(http://127.0.0.1:${http}/css-url)">styled</div>
<iframe src="data:text/html,<script>new WebSocket('ws://127.0.0.1:${http}/iframe-ws')</script>"></iframe>
<script>
  document.getElementById('js').textContent = 'JS-RAN';
  fetch('http://127.0.0.1:${http}/fetch').catch(() => {});
  new WebSocket('ws://127.0.0.1:${http}/ws');
  new WebSocket('ws://localhost:${http}/ws-name');
  new Image().src = 'http://127.0.0.1:${http}/js-img';
  const pc = new RTCPeerConnection({ iceServers: [{ urls: 'stun:127.0.0.1:${udp}' }] });
  pc.createDataChannel('d');
  pc.createOffer().then((offer) => pc.setLocalDescription(offer));
</script>`;

/**
 * The PDF renderer on hostile markup (real Chromium): no script runs, and nothing reaches a
 * listener on loopback, by HTTP, WebSocket or WebRTC (STUN over UDP). Each of the three defences
 * is also shown on its own: JavaScript off, the page's Content-Security-Policy, and Chromium's
 * flags that close the network that request interception does not see.
 */
describeWithTools('chromium', 'pdftotext')('the report renderer (real Chromium) on hostile markup', () => {
  const reached: string[] = [];
  let listener: http.Server;
  let udp: dgram.Socket;
  let httpPort: number;
  let udpPort: number;

  beforeAll(async () => {
    listener = http.createServer((request, response) => {
      reached.push(`${request.method} ${request.url}`);
      response.end('x');
    });
    listener.on('upgrade', (request, socket) => {
      reached.push(`UPGRADE ${request.url}`);
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    httpPort = (listener.address() as AddressInfo).port;
    udp = dgram.createSocket('udp4');
    udp.on('message', () => reached.push('UDP'));
    await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
    udpPort = udp.address().port;
  });

  afterAll(async () => {
    listener.closeAllConnections();
    await new Promise((resolve) => listener.close(resolve));
    udp.close();
  });

  const settle = () => new Promise((resolve) => setTimeout(resolve, 1500));

  it('renders a report whose content tries script, fetch, WebSocket, WebRTC and images as inert text', async () => {
    reached.length = 0;
    const sut = new ReportRenderer({ CHROMIUM_PATH: CHROMIUM } as AppConfig);
    try {
      const html = reportDocument(
        { title: 'Hostile', team: 'T', facts: [], generatedAt: 'now', generatedBy: 'test' },
        [hostile(httpPort, udpPort)],
      );
      const text = pdfText(await sut.render(html));
      await settle();
      expect(text).toContain('script did not run');
      expect(text).not.toContain('JS-RAN');
      expect(reached).toEqual([]);
    } finally {
      await sut.onApplicationShutdown();
    }
  }, 60_000);

  describe('each defence on its own (a page with JavaScript on)', () => {
    const withChromium = async (
      args: readonly string[],
      html: string,
    ): Promise<{ text: string; reached: string[] }> => {
      reached.length = 0;
      const browser = await puppeteer.launch({
        executablePath: CHROMIUM,
        headless: true,
        args: ['--no-sandbox', ...args],
      });
      try {
        const page = await browser.newPage();
        await page.setContent(html, { waitUntil: 'load' });
        await settle();
        return { text: await page.$eval('#js', (p) => p.textContent ?? ''), reached: [...reached] };
      } finally {
        await browser.close();
      }
    };
    const page = () =>
      `<!doctype html><html><head><title>t</title></head><body>${hostile(httpPort, udpPort)}</body></html>`;

    it('without them, the markup reaches the listener (the probe works)', async () => {
      const { text, reached: seen } = await withChromium(['--disable-gpu'], page());
      expect(text).toBe('JS-RAN');
      expect(seen).toEqual(expect.arrayContaining(['UPGRADE /ws', 'GET /img', 'UDP']));
    }, 60_000);

    it("Chromium's flags close WebSocket, WebRTC and HTTP, loopback included", async () => {
      const { text, reached: seen } = await withChromium(CHROMIUM_ARGS, page());
      expect(text).toBe('JS-RAN');
      expect(seen).toEqual([]);
    }, 60_000);

    it('the Content-Security-Policy stops inline script and every load but data: images', async () => {
      const { text, reached: seen } = await withChromium(['--disable-gpu'], withReportCsp(page()));
      expect(text).toBe('script did not run');
      expect(seen).toEqual([]);
    }, 60_000);
  });

  it('puts the policy first in the head, and refuses a document without one', () => {
    expect(withReportCsp('<!doctype html><html><head><title>x</title></head><body></body></html>')).toBe(
      `<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"><title>x</title></head><body></body></html>`,
    );
    expect(() => withReportCsp('<p>no head</p>')).toThrow(/must have a <head>/);
  });
});
