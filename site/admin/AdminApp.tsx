import { Component, lazy, Suspense, useEffect, type ReactNode } from 'react';
import { OFFLINE_MESSAGE } from './client.ts';
import { takeFlash } from './ui/flash.ts';
import { LoginForm } from './login/LoginForm.tsx';
import { NoticeProvider, useNotify } from './ui/Notice.tsx';
import { useSession } from './login/useSession.ts';

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
  if (state.status === 'signedOut')
    return <LoginForm onLogin={login} ended={state.ended} onStart={() => void loadPanel()} />;
  if (state.status === 'cleaner') return <CleanerHere onLogout={logout} />;
  return (
    <PanelLoadFailure>
      <Suspense fallback={<Loading />}>
        <Panel
          me={{ username: state.username, role: state.role, twoFactor: state.twoFactor }}
          onLogout={logout}
          onAccountSaved={refresh}
        />
      </Suspense>
    </PanelLoadFailure>
  );
}

/**
 * A cleaner's session in this browser (a cleaner's link opened here): the panel has nothing for
 * them; their page is the link itself (worker/pages/sign-in-link.ts).
 */
function CleanerHere({ onLogout }: { onLogout: () => Promise<void> }) {
  return (
    <main className="login">
      <div className="login__card">
        <h1 className="login__title">Вы вошли как уборщик</h1>
        <p>Ваши уборки открываются по вашей личной ссылке для входа. Чтобы войти в панель, выйдите.</p>
        <button type="button" className="btn btn--primary" onClick={() => void onLogout()}>
          Выйти
        </button>
      </div>
    </main>
  );
}

/**
 * On a weak connection the panel's code can fail to arrive after sign-in: say so and offer a
 * reload (the session is kept), instead of leaving an empty page.
 */
class PanelLoadFailure extends Component<{ children: ReactNode }, { error: unknown }> {
  override state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    const notLoaded = /dynamically imported module|importing a module script failed|error loading/i.test(String(error));
    return (
      <div className="admin-loading admin-failure" role="alert">
        <p>
          {notLoaded ? `Не удалось загрузить панель. ${OFFLINE_MESSAGE}` : 'Что-то пошло не так. Обновите страницу.'}
        </p>
        <button type="button" className="btn btn--primary" onClick={() => location.reload()}>
          Обновить страницу
        </button>
      </div>
    );
  }
}
