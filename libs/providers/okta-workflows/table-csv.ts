/**
 * RFC 4180 CSV as *Export to CSV* writes a table (a header line of column names, then one line
 * a row) to rows keyed by column name, and back. Small and strict on purpose: the only CSV the
 * product reads is what the exporter flow returns.
 */

/** The records of a CSV text; quoted fields may hold commas, doubled quotes and line breaks. */
export function parseCsv(text: string): string[][] {
  const lines: string[][] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"' && field === '') quoted = true;
    else if (char === ',') {
      fields.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i++;
      fields.push(field);
      lines.push(fields);
      fields = [];
      field = '';
    } else field += char;
  }
  if (field !== '' || fields.length > 0) {
    fields.push(field);
    lines.push(fields);
  }
  return lines;
}

/** Rows keyed by the header's column names (a missing trailing field reads as ''). */
export function csvRows(text: string): Array<Record<string, string>> {
  const [header, ...lines] = parseCsv(text);
  if (!header) return [];
  return lines.map((fields) => Object.fromEntries(header.map((name, i) => [name, fields[i] ?? ''])));
}

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** CSV text of `rows` with the columns in `columns` order, CRLF line ends (RFC 4180 §2). */
export function toCsv(columns: readonly string[], rows: ReadonlyArray<Record<string, string>>): string {
  return [columns, ...rows.map((row) => columns.map((name) => row[name] ?? ''))]
    .map((fields) => fields.map(csvField).join(','))
    .join('\r\n');
}
