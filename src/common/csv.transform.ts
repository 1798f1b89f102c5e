/**
 * class-transformer `@Transform` for list query parameters: `a,b` (or a repeated parameter, which
 * Express already gives as an array) becomes `['a', 'b']`; blanks are dropped.
 */
export const csv = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean)
    : value;
