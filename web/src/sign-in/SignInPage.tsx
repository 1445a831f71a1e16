/** The sign-in page: username and password go to the token endpoint once and are never kept. */
import { useState, type FormEvent } from 'react';
import { ApiError } from '../api/api-error';
import { signIn } from '../api/session';
import { Logo } from '../app/Logo';
import styles from './sign-in.module.css';

function failureText(failure: unknown): string {
  if (failure instanceof ApiError) {
    if (failure.status === 401) return 'Wrong username or password.';
    if (failure.status === 429) {
      const seconds = Number(failure.value.retryAfterSeconds);
      return seconds > 0
        ? `Too many failed attempts: this account is locked for ${seconds} seconds.`
        : 'Too many failed attempts: this account is locked for a while.';
    }
    return failure.value.message || failure.value.code;
  }
  return 'The server cannot be reached. Try again in a moment.';
}

export interface SignInPageProps {
  /** The session ended by itself (the page says so). */
  expired: boolean;
  /** Who was signed in before, when the session ended. */
  lastUsername?: string;
}

export function SignInPage({ expired, lastUsername }: SignInPageProps) {
  const [username, setUsername] = useState(lastUsername ?? '');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await signIn(username, password);
    } catch (failure) {
      setError(failureText(failure));
      setPassword('');
      setBusy(false);
    }
  };

  return (
    <div className={styles.page}>
      <form className={styles.card} onSubmit={submit} aria-label="Sign in">
        <div className={styles.brand}>
          <Logo size={34} />
          <h1>Pipework</h1>
        </div>
        <p className={styles.lead}>Sign in to the workbench</p>
        {expired && !error && (
          <p className={styles.notice} role="status">
            Your session has ended. Sign in again to continue where you were.
          </p>
        )}
        <label>
          Username
          <input
            name="username"
            autoComplete="username"
            autoFocus={!lastUsername}
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
            autoFocus={!!lastUsername}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        {error && (
          <p className={styles.error} role="alert">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy || !username || !password}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </div>
  );
}
