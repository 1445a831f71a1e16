/**
 * The workbench's route lives in the URL hash (`#/editor?key=global/app/x.pi.yaml`), so a reload, a shared
 * link or a return from sign-in lands on the same pipeline.
 */
import { useCallback, useSyncExternalStore } from 'react';

export interface Route {
  view: 'editor';
  /** The pipeline property open in the editor, if any. */
  key?: string;
}

export function parseRoute(hash: string): Route {
  const [, query = ''] = hash.replace(/^#\/?/, '').split('?');
  const key = new URLSearchParams(query).get('key') ?? undefined;
  return { view: 'editor', key: key || undefined };
}

export function routeHash(route: Route): string {
  return route.key ? `#/editor?${new URLSearchParams({ key: route.key })}` : '#/editor';
}

function subscribe(listener: () => void): () => void {
  window.addEventListener('hashchange', listener);
  return () => window.removeEventListener('hashchange', listener);
}

export function useRoute(): [Route, (route: Route) => void] {
  const hash = useSyncExternalStore(subscribe, () => window.location.hash);
  const navigate = useCallback((route: Route) => {
    const next = routeHash(route);
    if (window.location.hash !== next) window.location.hash = next;
  }, []);
  return [parseRoute(hash), navigate];
}
