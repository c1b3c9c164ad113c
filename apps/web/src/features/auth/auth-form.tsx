import type { ReactNode } from 'react';
import { Alert, Button, Stack, Text } from '@mantine/core';
import type { UseMutationResult } from '@tanstack/react-query';
import { errorMessage } from '../../lib/errors.ts';

type Sent = UseMutationResult<{ message: string }, Error, never>;

/**
 * A form of the sign-in screens that sends once (a restore link, a demo request, a new
 * password): the server's message once sent; before, a hint, the error of the last try, the
 * fields and the submit button.
 */
export function AuthForm(props: {
  mutation: Pick<Sent, 'isSuccess' | 'isError' | 'isPending' | 'data' | 'error'>;
  onSubmit: (e?: React.FormEvent<HTMLFormElement>) => void;
  hint?: string;
  submitLabel: string;
  children: ReactNode;
}) {
  const { mutation } = props;
  if (mutation.isSuccess) {
    return (
      <Alert color="green" role="status">
        {mutation.data?.message}
      </Alert>
    );
  }
  return (
    <form onSubmit={props.onSubmit} noValidate>
      <Stack gap="sm">
        {props.hint && (
          <Text size="sm" c="dimmed">
            {props.hint}
          </Text>
        )}
        {mutation.isError && (
          <Alert color="red" role="alert">
            {errorMessage(mutation.error)}
          </Alert>
        )}
        {props.children}
        <Button type="submit" loading={mutation.isPending} fullWidth>
          {props.submitLabel}
        </Button>
      </Stack>
    </form>
  );
}
