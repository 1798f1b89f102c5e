import { Paper, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import Markdown, { type Components } from 'react-markdown';
import { ErrorAlert } from '../../components/ErrorAlert';
import { htmlAsText, runbookOf } from '../../logic/package-runbook';
import { workflowsMessages as text } from '../../messages/workflows';

/** The runbook's headings sit under the page's title: # becomes h3, ## h4 (the page has h1 and h2). */
const HEADINGS: Components = {
  h1: ({ children }) => <h3>{children}</h3>,
  h2: ({ children }) => <h4>{children}</h4>,
  h3: ({ children }) => <h5>{children}</h5>,
};

/**
 * A re-import package's RUNBOOK.md, read from the package itself (its signed URL, fetched without
 * the session cookie) and shown as Markdown. Raw HTML in it is shown as text (htmlAsText), and
 * react-markdown's URL filter drops `javascript:` links: the runbook quotes the org's own names.
 * Loaded on demand, so the Markdown renderer stays out of the console's first download.
 */
export default function Runbook({ url }: { url: string }) {
  const runbook = useQuery({
    // The signed URL changes on every poll of the restore; the package does not.
    queryKey: ['restore-package-runbook', new URL(url).pathname],
    queryFn: async () => {
      const response = await fetch(url, { credentials: 'omit' });
      if (!response.ok) throw new Error(`The package answered ${response.status} ${response.statusText}`);
      return runbookOf(new Uint8Array(await response.arrayBuffer()));
    },
    staleTime: Infinity,
  });
  if (runbook.error) return <ErrorAlert error={runbook.error} />;
  if (runbook.data === undefined) return <Text>{text.restore.runbookLoading}</Text>;
  if (runbook.data === null) return <Text>{text.restore.runbookMissing}</Text>;
  return (
    <Paper withBorder p="md" style={{ overflowWrap: 'anywhere' }}>
      <Markdown remarkPlugins={[htmlAsText]} components={HEADINGS}>
        {runbook.data}
      </Markdown>
    </Paper>
  );
}
