/**
 * The sidebar's list of apps the user may see (the server leaves out apps guarded by a role the user lacks):
 * one click opens the app's overview with its forms and lists.
 */
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../api';
import { useRoute } from '../app/route';
import { appNamesOf } from './app-sections';
import styles from './apps.module.css';

export function AppsPanel() {
  const api = useApi();
  const [route, navigate] = useRoute();
  const apps = useQuery({
    queryKey: ['apps'],
    queryFn: async () =>
      appNamesOf(await api.command<string[]>('property.keys.children', { pattern: 'global/app' })),
  });
  if (apps.isPending) return <p className={styles.note}>Loading the apps…</p>;
  if (apps.isError) return <p role="alert">{(apps.error as Error).message}</p>;
  if (apps.data.length === 0) return <p className={styles.note}>No apps yet: publish one with pi publish.</p>;
  return (
    <nav aria-label="Apps">
      <ul className={styles.apps}>
        {apps.data.map((name) => {
          const app = `global/app/${name}`;
          return (
            <li key={name}>
              <a
                href={`#/app?app=${encodeURIComponent(app)}`}
                aria-current={route.view === 'app' && route.app === app ? 'page' : undefined}
                onClick={(e) => {
                  e.preventDefault();
                  navigate({ view: 'app', app });
                }}
              >
                {name}
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
