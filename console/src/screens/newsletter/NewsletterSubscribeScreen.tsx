import { Alert, Button, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../../api/client';
import { ApiError } from '../../api/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { newsletterMessages as text } from '../../messages/newsletter';
import { NewsletterFrame } from './NewsletterFrame';

/**
 * The public subscribe form (POST /api/newsletter/subscribe). The API answers the same for every
 * address (it tells nobody who subscribes), so the page says only that a mail may be on its way.
 */
export function NewsletterSubscribeScreen() {
  const [email, setEmail] = useState('');
  const subscribe = useMutation({
    mutationFn: (address: string) =>
      unwrap(api().POST('/api/newsletter/subscribe', { body: { email: address } })),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    subscribe.mutate(email.trim());
  };
  const fieldError =
    subscribe.error instanceof ApiError && subscribe.error.status === 400
      ? subscribe.error.body.error
      : undefined;
  return (
    <NewsletterFrame title={text.subscribe.title}>
      <Paper withBorder p="lg">
        {subscribe.isSuccess ? (
          <Alert color="green" title={text.subscribe.sent} role="status">
            {text.subscribe.sentText}
          </Alert>
        ) : (
          <form onSubmit={submit} noValidate>
            <Stack>
              <Text>{text.subscribe.intro}</Text>
              <TextInput
                label={text.subscribe.email}
                type="email"
                autoComplete="email"
                required
                value={email}
                onChange={(event) => setEmail(event.currentTarget.value)}
                error={fieldError}
              />
              {subscribe.error && !fieldError && <ErrorAlert error={subscribe.error} />}
              <Button type="submit" loading={subscribe.isPending}>
                {text.subscribe.button}
              </Button>
            </Stack>
          </form>
        )}
      </Paper>
    </NewsletterFrame>
  );
}
