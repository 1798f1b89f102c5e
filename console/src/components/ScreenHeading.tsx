import { Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A screen's level-1 heading, and the sentence under it that says what the screen is for. */
export function ScreenHeading({ title, intro }: { title: ReactNode; intro?: ReactNode }) {
  return (
    <>
      <Title order={1} size="h2">
        {title}
      </Title>
      {intro !== undefined && <Text>{intro}</Text>}
    </>
  );
}
