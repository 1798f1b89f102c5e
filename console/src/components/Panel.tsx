import { Paper, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A bordered section of a screen under its own level-2 heading (a form or a short list). */
export function Panel({ heading, children }: { heading: ReactNode; children: ReactNode }) {
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Title order={2} size="h4">
          {heading}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}
