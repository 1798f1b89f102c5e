import { createHash } from 'node:crypto';

/** Markup that is already safe: built by {@link html}, never from raw input. */
export class SafeHtml {
  constructor(readonly markup: string) {}
}

/** What {@link html} accepts in a slot: text is escaped, SafeHtml kept, empty values dropped. */
export type HtmlSlot = string | number | SafeHtml | readonly SafeHtml[] | null | undefined | false;

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text as HTML content or a quoted attribute value (OWASP XSS Prevention Cheat Sheet, rules 1 and 2). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]);
}

/** Tagged template: every interpolated value is escaped unless it is SafeHtml. */
export function html(strings: TemplateStringsArray, ...slots: HtmlSlot[]): SafeHtml {
  let markup = strings[0];
  slots.forEach((slot, index) => {
    markup += render(slot) + strings[index + 1];
  });
  return new SafeHtml(markup);
}

function render(slot: HtmlSlot): string {
  if (slot === null || slot === undefined || slot === false) return '';
  if (slot instanceof SafeHtml) return slot.markup;
  if (Array.isArray(slot)) return slot.map((item: SafeHtml) => item.markup).join('');
  return escapeHtml(String(slot));
}

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:30rem;margin:3rem auto;padding:0 1rem;color:#1f2328}' +
  'h1{font-size:1.4rem}input,button{font:inherit;padding:.5rem;margin:.25rem 0;width:100%;box-sizing:border-box}' +
  'button{cursor:pointer}.secondary{background:none;border:1px solid #8c959f}.error{color:#b42318}' +
  '.muted{color:#59636e;font-size:.9rem}dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem}dt{font-weight:600}';

/**
 * Headers of every HTML page: a CSP that allows only our one inline style (by hash), no script,
 * no framing (clickjacking of the consent page); no caching; no referrer leaking the
 * interaction URL. `form-action` is left out: Chrome applies it to the redirect that follows a
 * form post, which must reach the client's redirect URI.
 */
export const HTML_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; frame-ancestors 'none'; base-uri 'none'`,
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
};

/** A complete HTML document. */
export function renderPage(title: string, body: SafeHtml): string {
  return html`<!DOCTYPE html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} · idp-backup</title>
        <style>
          ${new SafeHtml(STYLE)}
        </style>
      </head>
      <body>
        <main>${body}</main>
      </body>
    </html> `.markup;
}
