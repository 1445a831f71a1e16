/**
 * The application root: the sign-in page, or, once signed in, the workbench. The workbench (Monaco, the
 * property tree, the shared core) is a lazy chunk, so the sign-in page loads only this small bundle.
 *
 * When a session ends by itself the workbench stays mounted (hidden and inert) under the sign-in page: the
 * same user signing in again finds the route, the unsaved text and the last run as they were. Another user,
 * or a sign-out, gets a fresh workbench.
 */
import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from 'react';
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
  // The user whose workbench is mounted (kept through an expiry, dropped at sign-out).
  const [owner, setOwner] = useState<string | undefined>(undefined);

  useEffect(() => {
    void restoreSession();
  }, []);

  const signedIn = session.status === 'signed-in';
  const expired = session.status === 'signed-out' && session.reason === 'expired';
  const current = signedIn ? session.username : expired ? owner : undefined;
  if (current !== owner) setOwner(current);

  if (session.status === 'restoring') return <Loading what="Loading…" />;
  const workbench = owner !== undefined && (signedIn || expired) && (
    <div className="app-workbench" inert={!signedIn} aria-hidden={!signedIn}>
      <Suspense fallback={<Loading what="Loading the workbench…" />}>
        <Workbench key={owner} session={signedIn ? session : { status: 'signed-in', username: owner }} />
      </Suspense>
    </div>
  );
  return (
    <>
      {workbench}
      {!signedIn && (
        <div className={workbench ? 'app-sign-in-over' : undefined}>
          <SignInPage expired={expired} lastUsername={expired ? owner : undefined} />
        </div>
      )}
    </>
  );
}
