import { Alert } from '@mantine/core';
import { useEffect, useState } from 'react';
import { ApiError } from '../api/errors';
import { errorAlertMessages as text } from '../messages/errorAlert';

/**
 * An error as the person should read it: the status's headline and the API's own message; a 402
 * names the limit and the plan, a 429 counts down its `Retry-After`.
 */
export function ErrorAlert({ error }: { error: unknown }) {
  if (!(error instanceof ApiError)) {
    return (
      <Alert color="red" title={text.unexpected} role="alert">
        {error instanceof Error ? error.message : String(error)}
      </Alert>
    );
  }
  return (
    <Alert color={error.status === 429 ? 'yellow' : 'red'} title={errorTitle(error.status)} role="alert">
      <div>{error.body.error}</div>
      {error.status === 402 && <div>{text.limit(error.body.limit, error.body.plan)}</div>}
      {error.status === 429 && <RetryCountdown seconds={error.retryAfterSeconds} />}
    </Alert>
  );
}

function RetryCountdown({ seconds }: { seconds: number | null }) {
  const [left, setLeft] = useState(seconds ?? 0);
  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft((value) => value - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);
  if (seconds === null) return <div>{text.retrySoon}</div>;
  return <div>{left > 0 ? text.retryIn(left) : text.retryNow}</div>;
}

/** The headline for an API error, by status, without the API's own message. */
function errorTitle(status: number): string {
  return text.titles[status] ?? (status >= 500 ? text.serverFailed : text.otherStatus(status));
}
