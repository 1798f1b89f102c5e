/** How an error reads: a headline per HTTP status, and the 402 and 429 details. */
export const errorAlertMessages = {
  unexpected: 'Something went wrong',
  titles: {
    400: 'The request was refused',
    401: 'Signed out',
    402: 'Plan limit reached',
    403: 'Not allowed',
    404: 'Not found',
    409: 'Conflict',
    429: 'Too many requests',
  } as Record<number, string>,
  serverFailed: 'The service failed',
  otherStatus: (status: number) => `Error ${status}`,
  limit: (limit: string | number | null | undefined, plan: string | null | undefined) =>
    `Limit: ${limit ?? 'unknown'} on the ${plan ?? 'current'} plan.`,
  retrySoon: 'Try again in a moment.',
  retryIn: (seconds: number) => `Try again in ${seconds} s.`,
  retryNow: 'You can try again now.',
} as const;
