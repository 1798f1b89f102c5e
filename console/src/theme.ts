import { createTheme, Modal, Notification, type CSSVariablesResolver } from '@mantine/core';

/**
 * Mantine's theme, tuned for WCAG 2.1 AA (4.5:1 contrast for text): filled controls use shade 8
 * of their colour under white text, dimmed text is gray 7 rather than gray 6, and icon-only
 * close buttons are named. Transitions (notifications, modals, collapses) are skipped for users who
 * ask their system for reduced motion (WCAG 2.1 SC 2.3.3, `prefers-reduced-motion`).
 */
export const theme = createTheme({
  primaryShade: { light: 8, dark: 8 },
  respectReducedMotion: true,
  autoContrast: true,
  components: {
    // Close buttons are icons: they need a name (axe `button-name`).
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
    Notification: Notification.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
  },
});

/**
 * CSS variables beside the theme, so that text keeps 4.5:1 in both schemes: in light, darker
 * dimmed and error text and dark text on light variants; in dark, lighter dimmed and error text.
 * `--console-section-background` shades a heading row inside a list (the compare screen's type
 * headings) in either scheme, under the scheme's own text colour.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    '--console-section-background': 'var(--mantine-color-gray-1)',
    // Light badges, alerts and nav links: the tint carries the colour, the text stays dark.
    ...Object.fromEntries(
      ['blue', 'red', 'orange', 'yellow', 'green', 'gray', 'grape'].map((color) => [
        `--mantine-color-${color}-light-color`,
        'var(--mantine-color-dark-7)',
      ]),
    ),
  },
  // Dark: Mantine's dimmed (dark-2) and error (red-8) text fall under 4.5:1 on the dark body (dark-7).
  dark: {
    '--mantine-color-dimmed': 'var(--mantine-color-dark-1)',
    '--mantine-color-error': 'var(--mantine-color-red-4)',
    // Light gray under the dark scheme's light text would be about 1.2:1.
    '--console-section-background': 'var(--mantine-color-dark-5)',
  },
});
