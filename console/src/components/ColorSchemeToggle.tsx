import { Button, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { layoutMessages as text } from '../messages/layout';

/**
 * Switches between the light and dark themes. The console starts in the operating system's
 * scheme (`prefers-color-scheme`); a choice made here is kept in the browser (Mantine's
 * localStorage colour-scheme manager) and wins over the system's from then on.
 */
export function ColorSchemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme('light');
  const next = computed === 'dark' ? 'light' : 'dark';
  return (
    <Button
      variant="default"
      size="xs"
      onClick={() => setColorScheme(next)}
      aria-pressed={computed === 'dark'}
    >
      {text.darkTheme}
    </Button>
  );
}
