import { useState } from 'react';
import { loadSession, saveSession, type Session } from './api/session';
import { LoginPage } from './components/LoginPage';
import { PipelineRunner } from './components/PipelineRunner';

export function App() {
  const [session, setSession] = useState<Session | null>(loadSession);

  const changeSession = (next: Session | null) => {
    saveSession(next);
    setSession(next);
  };

  if (!session) return <LoginPage onLogin={changeSession} />;
  return (
    <div className="app">
      <header className="topbar">
        <h1>Pipework</h1>
        <span className="user">
          {session.username}
          <button type="button" onClick={() => changeSession(null)}>
            Sign out
          </button>
        </span>
      </header>
      <PipelineRunner session={session} />
    </div>
  );
}
