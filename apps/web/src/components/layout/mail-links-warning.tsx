import { Alert } from '@mantine/core';
import { IconLinkOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../lib/auth-context.tsx';

/**
 * Said where mails are made (the notification form, the settings): without the console's address
 * (PAGEWATCH_PUBLIC_URL) the server sends mails without links, rather than links that lead nowhere.
 */
export function MailLinksWarning() {
  const { t } = useTranslation();
  if (useAuth().config.MAIL_LINKS) return null;
  return (
    <Alert color="yellow" icon={<IconLinkOff size={18} />} data-testid="mail-links-warning">
      {t('general.mailLinksMissing')}
    </Alert>
  );
}
