import { PasswordInput, type PasswordInputProps } from '@mantine/core';

/** What a secret's input says: that one is stored, that none is, and (optionally) that empty keeps it. */
export type SecretHints = { stored: string; notSet: string; keep?: string };

/**
 * A write-only secret (SNMP community, queue password, SMTP password): the server never sends it
 * back, only whether one is stored, so the input starts empty and an empty input keeps it.
 */
export function SecretInput({ isSet, hints, description, ...props }: PasswordInputProps & { isSet: boolean | undefined; hints: SecretHints }) {
  return (
    <PasswordInput
      placeholder={isSet ? hints.stored : hints.notSet}
      // Once stored, that empty keeps it says more than the field's own description.
      description={isSet ? hints.keep : description}
      autoComplete="new-password"
      {...props}
    />
  );
}
