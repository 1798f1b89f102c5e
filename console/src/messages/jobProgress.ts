/** A job's progress bar label. */
export const jobProgressMessages = {
  pct: (pct: number) => `${pct} %`,
} as const;
