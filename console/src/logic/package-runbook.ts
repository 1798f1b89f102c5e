import { strFromU8, unzipSync } from 'fflate';

/** The runbook's name inside a re-import package (docs/okta-workflows.md "Restore: a re-import package"). */
export const RUNBOOK_ENTRY = 'RUNBOOK.md';

/**
 * The text of `RUNBOOK.md` in a re-import package (a ZIP), UTF-8 decoded, or null when the
 * package holds none. Only that entry is inflated.
 * @throws Error when `zip` is not a ZIP archive fflate can read
 */
export function runbookOf(zip: Uint8Array): string | null {
  const entries = unzipSync(zip, { filter: (file) => file.name === RUNBOOK_ENTRY });
  const runbook = entries[RUNBOOK_ENTRY];
  return runbook ? strFromU8(runbook) : null;
}

/** A node of a Markdown syntax tree (mdast), as far as htmlAsText reads it. */
interface MarkdownNode {
  type: string;
  value?: string;
  children?: MarkdownNode[];
}

/**
 * A remark plugin that turns raw HTML in Markdown into plain text: a runbook quotes names from
 * the backed-up org (flows, tables, connections), so `<img onerror=…>` in a flow's name is shown
 * as those characters, never parsed as HTML, and not silently dropped either.
 */
export function htmlAsText() {
  return (tree: MarkdownNode) => {
    const walk = (node: MarkdownNode) => {
      if (node.type === 'html') node.type = 'text';
      node.children?.forEach(walk);
    };
    walk(tree);
  };
}
