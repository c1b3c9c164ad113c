import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DemoRequestForm } from './demo-request-form.tsx';
import { ForgotPasswordForm } from './forgot-password-form.tsx';
import { LoginForm } from './login-form.tsx';
import { PublicCard } from './public-card.tsx';

type View = 'signIn' | 'forgot' | 'demo';

/**
 * `/login-form`: sign-in, with the forgot-password and demo-request forms in the same card
 * (the spec gives them no routes of their own, and the `redirect` query must survive them).
 */
export function LoginPage() {
  const { t } = useTranslation();
  const [view, setView] = useState<View>('signIn');
  const back = () => setView('signIn');
  if (view === 'forgot') {
    return (
      <PublicCard title={t('login.forgotTitle')}>
        <ForgotPasswordForm onBack={back} />
      </PublicCard>
    );
  }
  if (view === 'demo') {
    return (
      <PublicCard title={t('demo.title')}>
        <DemoRequestForm onBack={back} />
      </PublicCard>
    );
  }
  return (
    <PublicCard title={t('login.title')}>
      <LoginForm onForgotPassword={() => setView('forgot')} onRequestDemo={() => setView('demo')} />
    </PublicCard>
  );
}
