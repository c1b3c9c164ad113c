import { Alert, Anchor, Center, Loader, Paper, Stack, Text } from '@mantine/core';
import { IconChartBar } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AppPage } from '../../components/layout/app-page.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { useReportTypes } from '../../lib/report-types.ts';

/** The reports list (spec section 2): the report types by name, each opening its report screen. */
export function ReportsPage() {
  const { t } = useTranslation();
  const types = useReportTypes();
  return (
    <AppPage title={t('nav.reports')}>
      {types.error ? (
        <Alert color="red" role="alert">
          {errorMessage(types.error)}
        </Alert>
      ) : !types.data ? (
        <Center py="xl">
          <Loader size="sm" />
        </Center>
      ) : (
        <Stack gap="sm" maw={720} component="ul" p={0} m={0} style={{ listStyle: 'none' }} data-testid="report-types">
          {types.data.map((r) => (
            <Paper key={r.code} component="li" withBorder p="md">
              <Anchor component={Link} to={`/report/${r.id}`} fw={600} style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
                <IconChartBar size={18} aria-hidden />
                {t(`reports.type.${r.code}`)}
              </Anchor>
              <Text size="sm" c="dimmed" mt={4}>
                {t(`reports.about.${r.code}`)}
              </Text>
            </Paper>
          ))}
        </Stack>
      )}
    </AppPage>
  );
}
