import { Button, Container, Divider, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { api, apiBaseUrl, unwrap } from '../api/client';
import { ApiError } from '../api/errors';
import { ErrorAlert } from '../components/ErrorAlert';
import { oidcSignInUrl } from '../logic/sign-in';
import { signInMessages as text } from '../messages/signIn';

/**
 * Sign-in with a one-time e-mail code (docs/auth.md): the address, then the six digits; and,
 * where the API has one configured (`GET /api/sign-in/options`), through the identity provider.
 */
export function SignInScreen() {
  const options = useQuery({
    queryKey: ['sign-in-options'],
    queryFn: () => unwrap(api().GET('/api/sign-in/options')),
    staleTime: 5 * 60_000,
  });
  const oidc = options.data?.oidc;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [codeSent, setCodeSent] = useState(false);
  const send = useMutation({
    mutationFn: () => unwrap(api().POST('/api/auth/send-code', { body: { email } })),
    onSuccess: () => setCodeSent(true),
  });
  const verify = useMutation({
    mutationFn: () => unwrap(api().POST('/api/auth/verify-code', { body: { email, code } })),
    onSuccess: async () => {
      await queryClient.invalidateQueries();
      navigate('/');
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (codeSent) verify.mutate();
    else send.mutate();
  };
  const error = verify.error ?? send.error;
  const fields = error instanceof ApiError ? error.fieldErrors() : {};
  return (
    <Container size={420} py="xl" component="main">
      <Title order={1} size="h2" mb="md">
        {text.title}
      </Title>
      <Paper withBorder p="lg" component="form" onSubmit={submit}>
        <Stack>
          <TextInput
            label={text.email}
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
            error={fields.email}
            disabled={codeSent}
          />
          {codeSent && (
            <>
              <Text size="sm">{text.codeSent(email)}</Text>
              <TextInput
                label={text.code}
                inputMode="numeric"
                autoComplete="one-time-code"
                required
                value={code}
                onChange={(event) => setCode(event.currentTarget.value.trim())}
                error={fields.code}
              />
            </>
          )}
          {error && <ErrorAlert error={error} />}
          <Button type="submit" loading={send.isPending || verify.isPending}>
            {codeSent ? text.signIn : text.sendCode}
          </Button>
          {codeSent && (
            <Button variant="subtle" onClick={() => setCodeSent(false)}>
              {text.anotherAddress}
            </Button>
          )}
          {oidc && (
            <>
              <Divider label={text.or} labelPosition="center" />
              <Button
                component="a"
                variant="default"
                href={oidcSignInUrl(apiBaseUrl(), window.location.origin)}
              >
                {text.signInWith(oidc.name)}
              </Button>
            </>
          )}
        </Stack>
      </Paper>
    </Container>
  );
}
