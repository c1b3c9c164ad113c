import { Card, Group, SimpleGrid, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AppPage } from '../../components/layout/app-page.tsx';
import { MENU_ITEMS } from '../../components/layout/menu-items.ts';
import { useAuth, useCurrentUser } from '../../lib/auth-context.tsx';
import { canOpen } from '../../lib/screen-access.ts';

/** `/home`: a greeting and the sections this user may open, as the menu shows them. */
export function HomePage() {
  const { t } = useTranslation();
  const auth = useAuth();
  const user = useCurrentUser();
  const sections = MENU_ITEMS.filter((item) => item.key !== 'home' && canOpen(item.key, auth));
  const name = user.firstName || user.lastName || user.login;

  return (
    <AppPage title={t('nav.home')}>
      <Text c="dimmed">{t('home.greeting', { name })}</Text>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 4 }} spacing="sm">
        {sections.map((item) => (
          <UnstyledButton key={item.key} component={Link} to={item.to} data-home-section={item.key}>
            <Card withBorder padding="md" radius="md" h="100%">
              <Group wrap="nowrap" gap="sm" align="flex-start">
                <ThemeIcon variant="light" size={40} radius="md">
                  <item.icon size={22} stroke={1.6} />
                </ThemeIcon>
                <div>
                  <Text fw={600}>{t(item.label)}</Text>
                  <Text size="sm" c="dimmed">
                    {t(`home.sections.${item.key}`)}
                  </Text>
                </div>
              </Group>
            </Card>
          </UnstyledButton>
        ))}
      </SimpleGrid>
    </AppPage>
  );
}
