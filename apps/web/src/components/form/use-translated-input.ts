import type { UseFormReturnType } from '@mantine/form';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * `getInputProps` whose error is translated: the contracts' zod schemas give i18n keys
 * (`general.mandatory`) as messages, so forms show `t(key)`.
 */
export function useTranslatedInput<V extends Record<string, unknown>>(form: UseFormReturnType<V>) {
  const { t } = useTranslation();
  return (...args: Parameters<UseFormReturnType<V>['getInputProps']>) => {
    const props = form.getInputProps(...args);
    const error = props.error as ReactNode;
    return { ...props, error: typeof error === 'string' ? t(error, { defaultValue: error }) : error };
  };
}
