/** The workbench's top bar: the product, the views (editor, runs), the signed-in user, sign out. */
import { useState } from 'react';
import { signOut, type SessionState } from '../api/session';
import { mayDropUnsaved } from '../document/unsaved-guard';
import { Logo } from './Logo';
import { routeHash, useRoute, type Route } from './route';

/** The editor and the Runs view; the editor link returns to the pipeline last open there. */
function ViewLinks() {
  const [route, navigate] = useRoute();
  const [lastKey, setLastKey] = useState<string>();
  if (route.view === 'editor' && route.key && route.key !== lastKey) setLastKey(route.key);
  const links: { label: string; target: Route; current: boolean }[] = [
    { label: 'Editor', target: { view: 'editor', key: lastKey }, current: route.view === 'editor' },
    { label: 'Runs', target: { view: 'runs' }, current: route.view === 'runs' },
  ];
  return (
    <nav className="wb-views" aria-label="Views">
      {links.map(({ label, target, current }) => (
        <a
          key={label}
          href={routeHash(target)}
          className="wb-view-link"
          aria-current={current ? 'page' : undefined}
          onClick={(e) => {
            e.preventDefault();
            navigate(target);
          }}
        >
          {label}
        </a>
      ))}
    </nav>
  );
}

export function Header({ session }: { session: SessionState }) {
  const who = session.displayName && session.displayName !== session.username ? session.displayName : null;
  return (
    <header className="wb-header">
      <div className="wb-brand">
        <Logo />
        Pipework <span className="wb-brand-sub">Workbench</span>
      </div>
      <ViewLinks />
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
