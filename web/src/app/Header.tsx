/** The workbench's top bar: the product, the signed-in user, sign out. */
import { signOut, type SessionState } from '../api/session';
import { mayDropUnsaved } from '../document/unsaved-guard';
import { Logo } from './Logo';

export function Header({ session }: { session: SessionState }) {
  const who = session.displayName && session.displayName !== session.username ? session.displayName : null;
  return (
    <header className="wb-header">
      <div className="wb-brand">
        <Logo />
        Pipework <span className="wb-brand-sub">Workbench</span>
      </div>
      <div className="wb-user">
        <span className="wb-avatar" aria-hidden="true">
          {(session.username ?? '?').slice(0, 1).toUpperCase()}
        </span>
        <span data-testid="signed-in-user">
          {session.username}
          {who && <span className="wb-user-name"> · {who}</span>}
        </span>
        <button
          type="button"
          className="wb-header-button"
          onClick={() => {
            if (mayDropUnsaved('The pipeline has unsaved changes. Sign out and drop them?')) void signOut();
          }}
        >
          Sign out
        </button>
      </div>
    </header>
  );
}
