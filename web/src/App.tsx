/**
 * The application root: the sign-in page, or, once signed in, the workbench. The workbench (Monaco, the
 * property tree, the shared core) is a lazy chunk, so the sign-in page loads only this small bundle.
 */
import { lazy, Suspense, useEffect, useSyncExternalStore } from 'react';
import { restoreSession, sessionState, subscribeSession } from './api/session';
import { SignInPage } from './sign-in/SignInPage';

const Workbench = lazy(() => import('./app/Workbench'));

function Loading({ what }: { what: string }) {
  return (
    <div className="app-loading" role="status">
      {what}
    </div>
  );
}

export function App() {
  const session = useSyncExternalStore(subscribeSession, sessionState);

  useEffect(() => {
    void restoreSession();
  }, []);

  if (session.status === 'restoring') return <Loading what="Loading…" />;
  if (session.status === 'signed-out') return <SignInPage expired={session.reason === 'expired'} />;
  return (
    <Suspense fallback={<Loading what="Loading the workbench…" />}>
      <Workbench session={session} />
    </Suspense>
  );
}
