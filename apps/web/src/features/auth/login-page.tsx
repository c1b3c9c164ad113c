import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyScreen, ScreenFrame } from '../../components/layout/lazy-screen.tsx';
import { LoginForm } from './login-form.tsx';
import { PublicCard } from './public-card.tsx';

type View = 'signIn' | 'forgot' | 'demo';

// Chunks of their own: the start holds the sign-in form alone (issue 22).
const ForgotPasswordForm = lazyScreen(() => import('./forgot-password-form.tsx'), 'ForgotPasswordForm');
const DemoRequestForm = lazyScreen(() => import('./demo-request-form.tsx'), 'DemoRequestForm');
/** The views besides sign-in: a title and a form that goes back to sign-in. */
const OTHER_VIEWS = {
  forgot: { titleKey: 'login.forgotTitle', Form: ForgotPasswordForm },
  demo: { titleKey: 'demo.title', Form: DemoRequestForm },
} as const;

/**
 * `/login-form`: sign-in, with the forgot-password and demo-request forms in the same card
 * (the spec gives them no routes of their own, and the `redirect` query must survive them).
 */
export function LoginPage() {
  const { t } = useTranslation();
  const [view, setView] = useState<View>('signIn');
  const back = () => setView('signIn');
  if (view !== 'signIn') {
    const { titleKey, Form } = OTHER_VIEWS[view];
    return (
      <PublicCard title={t(titleKey)}>
        <ScreenFrame>
          <Form onBack={back} />
        </ScreenFrame>
      </PublicCard>
    );
  }
  return (
    <PublicCard title={t('login.title')}>
      <LoginForm onForgotPassword={() => setView('forgot')} onRequestDemo={() => setView('demo')} />
    </PublicCard>
  );
}
