import { Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Instant } from '../../components/Instant';
import type { Framework } from '../../logic/compliance';
import { complianceMessages as text } from '../../messages/compliance';

/**
 * The PDF report of a connection's compliance (permission `export`; docs/export.md):
 * `POST /api/export/report` renders it and answers a signed URL that needs no sign-in, offered
 * as a download link with its expiry.
 */
export function ComplianceReportLink({
  connectionId,
  framework,
}: {
  connectionId: string;
  framework: Framework;
}) {
  const create = useMutation({
    mutationFn: () =>
      unwrap(api().POST('/api/export/report', { body: { type: 'compliance', framework, connectionId } })),
  });
  return (
    <Paper withBorder p="sm">
      <Stack gap="xs">
        <Title order={2} size="h3">
          {text.report}
        </Title>
        <Text size="sm">{text.reportHelp}</Text>
        <Group>
          <Button variant="default" loading={create.isPending} onClick={() => create.mutate()}>
            {text.createReport}
          </Button>
          {create.data && (
            <>
              <Anchor href={create.data.url} download>
                {text.downloadReport}
              </Anchor>
              <Text size="sm">
                {text.expires} <Instant iso={create.data.expiresAt} />
              </Text>
            </>
          )}
        </Group>
        {create.error ? <ErrorAlert error={create.error} /> : null}
      </Stack>
    </Paper>
  );
}
