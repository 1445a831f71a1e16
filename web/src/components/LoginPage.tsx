import { useState, type FormEvent } from 'react';
import { ApiError, callCommand } from '../api/client';
import { basicAuthorization, type Session } from '../api/session';

export function LoginPage({ onLogin }: { onLogin: (session: Session) => void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const authorization = basicAuthorization(username, password);
    try {
      await callCommand(authorization, 'datetime');
      onLogin({ username, authorization });
    } catch (failure) {
      setError(
        failure instanceof ApiError && failure.status === 401
          ? 'Wrong username or password.'
          : String(failure),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="login" onSubmit={submit}>
      <h1>Pipework</h1>
      <label>
        Username
        <input
          name="username"
          autoComplete="username"
          value={username}
          onChange={(e) => setUsername(e.target.value)}
        />
      </label>
      <label>
        Password
        <input
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </label>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" disabled={busy || !username}>
        Sign in
      </button>
    </form>
  );
}
