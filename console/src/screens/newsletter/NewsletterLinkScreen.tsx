import { Alert, Button, Paper, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { api } from '../../api/client';
import { ApiError, parseRetryAfter } from '../../api/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { newsletterMessages as text } from '../../messages/newsletter';
import { NewsletterFrame } from './NewsletterFrame';

type Action = 'confirm' | 'unsubscribe';
const PATHS = { confirm: '/api/newsletter/confirm', unsubscribe: '/api/newsletter/unsubscribe' } as const;

/**
 * Posts a newsletter link's token (POST /api/newsletter/confirm or /unsubscribe?token=…). The API
 * answers every token with a redirect to its own page (it never says whether a token was good),
 * so the redirect is not followed: it is the success.
 * @throws ApiError when the API answers an error (a 429 with its Retry-After)
 */
async function postToken(action: Action, token: string): Promise<void> {
  const { response } = await api().POST(PATHS[action], {
    params: { query: { token } },
    redirect: 'manual',
    parseAs: 'stream',
  });
  if (response.type === 'opaqueredirect' || response.ok) return;
  const body = (await response.json().catch(() => ({ error: text.failed }))) as ApiError['body'];
  throw new ApiError(response.status, body, parseRetryAfter(response.headers.get('retry-after')));
}

/**
 * The page a newsletter mail's link leads to, `?token=` from the mail: opening it changes nothing
 * (mail scanners open links), and its one button posts the token (docs/decisions.md "Newsletter
 * links act on POST only"), as the API's own /subscribed and /unsubscribed pages do.
 */
export function NewsletterLinkScreen({ action }: { action: Action }) {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const page = text[action];
  const post = useMutation({ mutationFn: () => postToken(action, token) });
  return (
    <NewsletterFrame title={post.isSuccess ? page.done : page.title}>
      <Paper withBorder p="lg">
        {post.isSuccess ? (
          <Alert color="green" title={page.done} role="status">
            {page.doneText}
          </Alert>
        ) : !token ? (
          <Text>{text.noToken}</Text>
        ) : (
          <Stack>
            <Text>{page.text}</Text>
            {post.error && <ErrorAlert error={post.error} />}
            <Button onClick={() => post.mutate()} loading={post.isPending}>
              {page.button}
            </Button>
          </Stack>
        )}
      </Paper>
    </NewsletterFrame>
  );
}
