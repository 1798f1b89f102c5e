/**
 * The `rel="next"` target of `Link` header values (RFC 8288 §3), resolved against the URL of
 * the request that returned them (§3.2: the link context is the request URI). Okta pages with
 * `Link: <https://org/api/v1/users?after=...&limit=200>; rel="next"` and says to follow it as an
 * opaque URL (Okta API "Pagination"), so the target is returned as is, never rebuilt.
 *
 * Accepts one header value or several (repeated `Link` headers); a value may hold several
 * comma-separated links, and commas inside `<...>` or quoted strings do not split them.
 * `rel` may list several space-separated relation types, compared case-insensitively (§3.3);
 * only its first occurrence in a link counts. Returns null when no link is `next` or its
 * target is not a valid URL reference.
 */
export function nextLinkUrl(values: string | readonly string[] | undefined, requestUrl: URL): URL | null {
  const list = values === undefined ? [] : typeof values === 'string' ? [values] : values;
  for (const value of list) {
    for (const link of parseLinks(value)) {
      if (!link.rels.includes('next')) continue;
      try {
        return new URL(link.target, requestUrl);
      } catch {
        return null;
      }
    }
  }
  return null;
}

interface Link {
  target: string;
  rels: string[];
}

/** Splits one field value into links: `<target>` then `; name=value` parameters. */
function parseLinks(value: string): Link[] {
  const links: Link[] = [];
  let i = 0;
  while (i < value.length) {
    const open = value.indexOf('<', i);
    if (open === -1) break;
    const close = value.indexOf('>', open + 1);
    if (close === -1) break;
    const target = value.slice(open + 1, close);
    const params = readParams(value, close + 1);
    const rel = params.find(([name]) => name === 'rel')?.[1] ?? '';
    links.push({ target, rels: rel.toLowerCase().split(/\s+/).filter(Boolean) });
    i = params.end;
  }
  return links;
}

/** Reads `; name[=token|"quoted"]` parameters from `start` up to the comma ending the link. */
function readParams(value: string, start: number): Array<[string, string]> & { end: number } {
  const params: Array<[string, string]> = [];
  let i = start;
  while (i < value.length && value[i] !== ',') {
    if (value[i] !== ';') {
      i++;
      continue;
    }
    const nameMatch = /^\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*/.exec(value.slice(i + 1));
    if (!nameMatch) {
      i++;
      continue;
    }
    const name = nameMatch[1].toLowerCase();
    i += 1 + nameMatch[0].length;
    let paramValue = '';
    if (value[i] === '=') {
      i++;
      while (value[i] === ' ' || value[i] === '\t') i++;
      if (value[i] === '"') {
        i++;
        while (i < value.length && value[i] !== '"') {
          if (value[i] === '\\') i++;
          paramValue += value[i] ?? '';
          i++;
        }
        i++;
      } else {
        const token = /^[^\s;,]*/.exec(value.slice(i))?.[0] ?? '';
        paramValue = token;
        i += token.length;
      }
    }
    params.push([name, paramValue]);
  }
  return Object.assign(params, { end: i + 1 });
}
