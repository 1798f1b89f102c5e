/** Mantine's PostCSS preset (breakpoint variables, rem helpers), as its setup guide asks. */
export default {
  plugins: { 'postcss-preset-mantine': {} },
};
