import { Container, Group, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { ColorSchemeToggle } from '../../components/ColorSchemeToggle';
import { newsletterMessages as text } from '../../messages/newsletter';

/** The frame of the public newsletter pages: no session, no navigation; the product's name, the theme switch, one card. */
export function NewsletterFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Container size={480} py="xl" component="main">
      <Group justify="space-between" mb="md" wrap="nowrap">
        <Text fw={700}>{text.productName}</Text>
        <ColorSchemeToggle />
      </Group>
      <Title order={1} size="h2" mb="md">
        {title}
      </Title>
      {children}
    </Container>
  );
}
