import { Component, lazy, Suspense, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import { Alert, Button, Center, Loader, Stack } from '@mantine/core';
import { IconPlugConnectedX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { screenTextsReady } from '../../i18n/i18n.ts';
import { ChunkLoadError, loadWithRetry } from '../../lib/load-with-retry.ts';

/** A lazy screen, and `preload()` to ask for its chunk before it is shown. */
export type LazyScreen<P extends object = object> = LazyExoticComponent<ComponentType<P>> & { preload: () => void };

/**
 * A screen (or a form) as its own chunk, loaded when first shown, inside a ScreenFrame:
 * `lazyScreen(() => import('…/home-page.tsx'), 'HomePage')`. `preload()` asks for it sooner
 * (the screen a visit opens, while the session is checked); the screen then waits for the
 * same request, and a failure shows when the screen does.
 */
export function lazyScreen<P extends object, K extends string>(load: () => Promise<Record<K, ComponentType<P>>>, name: K): LazyScreen<P> {
  let loading: Promise<{ default: ComponentType<P> }> | null = null;
  // The screen's texts arrive beside its code (the start holds only the shell's).
  const start = () => (loading ??= Promise.all([loadWithRetry(load), screenTextsReady()]).then(([m]) => ({ default: m[name] })));
  return Object.assign(lazy(start), { preload: () => void start().catch(() => undefined) });
}

function ChunkFailed() {
  const { t } = useTranslation();
  return (
    <Center py="xl">
      <Stack maw={480} w="100%">
        <Alert color="red" icon={<IconPlugConnectedX />} title={t('errors.chunkFailed')} role="alert">
          {t('errors.chunkFailedHint')}
        </Alert>
        <Button variant="light" onClick={() => window.location.reload()}>
          {t('errors.reload')}
        </Button>
      </Stack>
    </Center>
  );
}

/** Catches a chunk that did not load, so the screen says so instead of going blank. */
class ChunkBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError(err: unknown) {
    if (err instanceof ChunkLoadError) return { failed: true };
    throw err;
  }
  render() {
    return this.state.failed ? <ChunkFailed /> : this.props.children;
  }
}

function ScreenLoading() {
  const { t } = useTranslation();
  return (
    <Center py="xl" data-testid="screen-loading" role="status" aria-label={t('general.loading')}>
      <Loader size="sm" />
    </Center>
  );
}

/** Where a lazy screen appears: a loader while its chunk arrives, the failure notice if it does not. */
export function ScreenFrame({ children }: { children: ReactNode }) {
  return (
    <ChunkBoundary>
      <Suspense fallback={<ScreenLoading />}>
        {children}
      </Suspense>
    </ChunkBoundary>
  );
}
