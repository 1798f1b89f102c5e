import { Anchor, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Instant } from '../../components/Instant';
import { auditPackFilename, exportPeriod, localDay } from '../../logic/audit';
import { auditMessages } from '../../messages/audit';

const text = auditMessages.exports;
/** The period offered at first: the last 30 days, today included. */
const DEFAULT_DAYS = 30;

/**
 * The period's downloads (permission `export`, docs/export.md): an activity report, rendered by the
 * API as a PDF behind a signed URL (`POST /api/export/report`), and the signed audit pack, a ZIP
 * the API streams (`POST /api/export/audit-pack`), saved from the browser under the API's name.
 */
export function AuditDownloads() {
  const today = new Date();
  const [firstDay, setFirstDay] = useState(
    localDay(new Date(today.getFullYear(), today.getMonth(), today.getDate() - (DEFAULT_DAYS - 1))),
  );
  const [lastDay, setLastDay] = useState(localDay(today));
  const period = exportPeriod(firstDay, lastDay);
  const report = useMutation({
    mutationFn: (p: { from: string; to: string }) =>
      unwrap(api().POST('/api/export/report', { body: { type: 'activity', from: p.from, to: p.to } })),
  });
  const pack = useMutation({
    mutationFn: async (p: { from: string; last: string }) => {
      const zip = await unwrap(
        api().POST('/api/export/audit-pack', { body: { from: p.from, to: p.last }, parseAs: 'blob' }),
      );
      const filename = auditPackFilename(p.from, p.last);
      saveBlob(zip, filename);
      return filename;
    },
  });
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={2} size="h3">
          {text.title}
        </Title>
        <Text>{text.intro}</Text>
        <Group align="flex-end">
          <TextInput
            type="date"
            label={text.from}
            value={firstDay}
            onChange={(event) => setFirstDay(event.currentTarget.value)}
            w={{ base: '100%', sm: 180 }}
          />
          <TextInput
            type="date"
            label={text.to}
            value={lastDay}
            onChange={(event) => setLastDay(event.currentTarget.value)}
            w={{ base: '100%', sm: 180 }}
          />
          <Button
            disabled={!period}
            loading={report.isPending}
            onClick={() => period && report.mutate(period)}
          >
            {text.report}
          </Button>
          <Button disabled={!period} loading={pack.isPending} onClick={() => period && pack.mutate(period)}>
            {text.pack}
          </Button>
        </Group>
        {report.error && <ErrorAlert error={report.error} />}
        {report.data && (
          <Text>
            <Anchor href={report.data.url} underline="always">
              {text.reportReady}
            </Anchor>
            . {text.reportExpires} <Instant iso={report.data.expiresAt} />.
          </Text>
        )}
        {pack.error && <ErrorAlert error={pack.error} />}
        {pack.data && <Text role="status">{text.packSaved(pack.data)}</Text>}
      </Stack>
    </Paper>
  );
}

/** Hands `blob` to the browser as a download named `filename`. */
function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = filename;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // Revoked a while after the click: a URL revoked at once can cut the download short.
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}
