import { lazy, Suspense, useEffect } from 'react';
import { takeFlash } from './flash.ts';
import { LoginForm } from './LoginForm.tsx';
import { NoticeProvider, useNotify } from './Notice.tsx';
import { useSession } from './useSession.ts';

// The panel and its forms are most of the admin's code. The login screen does not need them,
// so they load once the owner is signed in, or starts typing at the login form.
const loadPanel = () => import('./Panel.tsx');
const Panel = lazy(loadPanel);

/** The whole admin panel: one React island, served only at the secret admin path. */
export default function AdminApp() {
  return (
    <NoticeProvider>
      <Gate />
    </NoticeProvider>
  );
}

function Loading() {
  return (
    <div className="admin-loading" role="status">
      <span className="spinner" aria-hidden="true" />
      <p>Загрузка панели…</p>
    </div>
  );
}

function Gate() {
  const { state, login, logout, refresh } = useSession();
  const notify = useNotify();

  useEffect(() => {
    const flash = takeFlash();
    if (flash) notify.success(flash);
  }, [notify]);

  if (state.status === 'checking') return <Loading />;
  if (state.status === 'signedOut') return <LoginForm onLogin={login} ended={state.ended} onStart={() => void loadPanel()} />;
  return (
    <Suspense fallback={<Loading />}>
      <Panel username={state.username} onLogout={logout} onAccountSaved={refresh} />
    </Suspense>
  );
}
