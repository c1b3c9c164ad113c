import { Anchor, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { AppPage } from '../../components/layout/app-page.tsx';
import { LoadState } from '../../components/layout/load-state.tsx';
import { useAuth } from '../../lib/auth-context.tsx';
import { useProductInfo } from './api/product-api.ts';
import { ProductDownloads } from './product-downloads.tsx';
import { formatDay } from '../../lib/format.ts';

function Line({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">{label}</Text>
      <Text size="sm" data-testid={testId}>{children}</Text>
    </div>
  );
}

/** `/product` (spec section 2): version, build, release date, copyright and support contacts; an ADMIN's downloads. */
export function ProductPage() {
  const { t } = useTranslation();
  const { hasRole } = useAuth();
  const info = useProductInfo();
  return (
    <AppPage title={t('nav.product')}>
      <LoadState error={info.error} ready={!!info.data}>
        {() => {
          const p = info.data!;
          const { email, phone, url } = p.support;
          return (
            <Stack gap="md" maw={700} data-testid="product-page">
              <Paper withBorder p="md">
                <Title order={3} size="h4" mb="sm">{t('app.name')}</Title>
                <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
                  <Line label={t('product.version')} testId="product-version">{p.appVersion}</Line>
                  <Line label={t('product.build')}>{p.buildNumber}</Line>
                  <Line label={t('product.releaseDate')}>{formatDay(p.releaseDate)}</Line>
                </SimpleGrid>
                <Text size="xs" c="dimmed" mt="md" data-testid="product-copyright">{p.copyright}</Text>
              </Paper>
              <Paper withBorder p="md">
                <Title order={3} size="h5" mb="sm">{t('product.support')}</Title>
                {email || phone || url ? (
                  <Stack gap="xs">
                    {email && <Line label={t('product.email')}><Anchor href={`mailto:${email}`}>{email}</Anchor></Line>}
                    {phone && <Line label={t('product.phone')}><Anchor href={`tel:${phone.replace(/[^+\d]/g, '')}`}>{phone}</Anchor></Line>}
                    {url && <Line label={t('product.site')}><Anchor href={url} target="_blank" rel="noopener noreferrer">{url}</Anchor></Line>}
                  </Stack>
                ) : (
                  <Text size="sm" c="dimmed" data-testid="product-no-support">{t('product.noSupport')}</Text>
                )}
              </Paper>
              {hasRole('ADMIN') && <ProductDownloads />}
            </Stack>
          );
        }}
      </LoadState>
    </AppPage>
  );
}
