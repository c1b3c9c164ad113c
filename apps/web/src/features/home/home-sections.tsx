import { Card, Group, SimpleGrid, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { MENU_ITEMS } from '../../components/layout/menu-items.ts';
import { useAuth } from '../../lib/auth-context.tsx';
import { canOpen } from '../../lib/screen-access.ts';

/** The sections this user may open, as the menu shows them, with a line on each. */
export function HomeSections() {
  const { t } = useTranslation();
  const auth = useAuth();
  const sections = MENU_ITEMS.filter((item) => item.key !== 'home' && canOpen(item.key, auth));
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 4 }} spacing="sm">
      {sections.map((item) => (
        <UnstyledButton key={item.key} component={Link} to={item.to} data-home-section={item.key}>
          <Card withBorder padding="sm" radius="md" h="100%">
            <Group wrap="nowrap" gap="sm" align="flex-start">
              <ThemeIcon variant="light" size={32} radius="md">
                <item.icon size={18} stroke={1.6} />
              </ThemeIcon>
              <div>
                <Text fw={600} size="sm">
                  {t(item.label)}
                </Text>
                <Text size="xs" c="dimmed">
                  {t(`home.sections.${item.key}`)}
                </Text>
              </div>
            </Group>
          </Card>
        </UnstyledButton>
      ))}
    </SimpleGrid>
  );
}
