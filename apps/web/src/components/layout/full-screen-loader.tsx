import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Shown while the app starts (config and current user) and while a lazy screen loads. */
export function FullScreenLoader() {
  const { t } = useTranslation();
  return (
    <Center h="100dvh" role="status" aria-label={t('general.loading')}>
      <Loader />
    </Center>
  );
}
