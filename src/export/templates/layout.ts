/** Escapes text for HTML content and attribute values (the five characters HTML gives meaning). */
export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!,
  );
}

/** What the cover of every report says: whose, about what, and when it was made by whom. */
export interface ReportCover {
  title: string;
  team: string;
  /** `label: value` lines under the title (connection, org URL, period...) */
  facts: Array<[string, string]>;
  generatedAt: string;
  generatedBy: string;
}

/** A table: header cells and rows of cells, already text (escaped here). */
export function table(
  head: readonly string[],
  rows: ReadonlyArray<readonly unknown[]>,
  empty = 'None.',
  /** column widths in percent, when the content would not share the page well by itself */
  widths?: readonly number[],
): string {
  if (rows.length === 0) return `<p class="muted">${escapeHtml(empty)}</p>`;
  const columns = widths
    ? `<colgroup>${widths.map((width) => `<col style="width:${width}%">`).join('')}</colgroup>`
    : '';
  return `<table>${columns}<thead><tr>${head.map((cell) => `<th>${escapeHtml(cell)}</th>`).join('')}</tr></thead><tbody>${rows
    .map((row) => `<tr>${row.map((cell) => `<td>${escapeHtml(cell)}</td>`).join('')}</tr>`)
    .join('')}</tbody></table>`;
}

/** Figures in a row of boxes, the summary an auditor reads first. */
export function figures(items: ReadonlyArray<[string, unknown]>): string {
  return `<div class="figures">${items
    .map(
      ([label, value]) =>
        `<div class="figure"><div class="value">${escapeHtml(value)}</div><div class="label">${escapeHtml(label)}</div></div>`,
    )
    .join('')}</div>`;
}

/** A status word coloured as a reviewer expects (pass green, fail red...). */
export function badge(status: string): string {
  return `<span class="badge ${escapeHtml(status)}">${escapeHtml(status)}</span>`;
}

const CSS = `
  @page { size: A4; }
  body { font-family: 'DejaVu Sans', 'Liberation Sans', Arial, sans-serif; font-size: 10pt; color: #1d2330; }
  .cover { border-bottom: 3px solid #2b5fd9; padding-bottom: 14px; margin-bottom: 18px; }
  .product { color: #2b5fd9; font-weight: bold; letter-spacing: 0.06em; font-size: 9pt; text-transform: uppercase; }
  h1 { font-size: 20pt; margin: 6px 0 10px; }
  h2 { font-size: 13pt; margin: 20px 0 8px; border-bottom: 1px solid #d7dbe3; padding-bottom: 3px; }
  .facts { table-layout: auto; width: auto; }
  .facts td { padding: 1px 14px 1px 0; border: none; }
  .facts td:first-child { color: #5b6473; }
  table { border-collapse: collapse; width: 100%; margin: 4px 0 10px; table-layout: fixed; }
  td { overflow-wrap: anywhere; }
  th, td { text-align: left; padding: 4px 6px; border-bottom: 1px solid #e4e7ed; vertical-align: top; }
  th { background: #f2f4f8; font-weight: 600; font-size: 9pt; }
  tr { page-break-inside: avoid; }
  .figures { display: flex; gap: 10px; margin: 8px 0 14px; }
  .figure { flex: 1; border: 1px solid #d7dbe3; border-radius: 6px; padding: 8px 10px; }
  .figure .value { font-size: 16pt; font-weight: bold; }
  .figure .label { color: #5b6473; font-size: 8.5pt; }
  .badge { padding: 1px 6px; border-radius: 8px; font-size: 8.5pt; background: #eef0f4; }
  .badge.pass, .badge.completed, .badge.success { background: #dff3e4; color: #17692f; }
  .badge.fail, .badge.failed, .badge.failure { background: #fbe1e1; color: #9b1c1c; }
  .badge.warning, .badge.partial { background: #fdf0d5; color: #8a5a00; }
  .muted { color: #6b7280; }
  .small { font-size: 8.5pt; }
`;

/** A whole report document: the cover, then the sections in order. */
export function reportDocument(cover: ReportCover, sections: readonly string[]): string {
  const facts = [...cover.facts, ['Generated', `${cover.generatedAt} by ${cover.generatedBy}`]]
    .map(([label, value]) => `<tr><td>${escapeHtml(label)}</td><td>${escapeHtml(value)}</td></tr>`)
    .join('');
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(cover.title)}</title><style>${CSS}</style></head><body>
<div class="cover"><div class="product">idp-backup · ${escapeHtml(cover.team)}</div><h1>${escapeHtml(cover.title)}</h1><table class="facts">${facts}</table></div>
${sections.join('\n')}
</body></html>`;
}
