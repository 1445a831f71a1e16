/**
 * The workbench's route lives in the URL hash (`#/editor?key=global/app/x.pi.yaml`, `#/form?object=...`,
 * `#/list?object=...`, `#/app?name=...`, `#/runs?run=<id>`), so a reload, a shared link or a return from sign-in lands on the
 * same view.
 */
import { useCallback, useSyncExternalStore } from 'react';

export type RouteView = 'editor' | 'form' | 'list' | 'app' | 'runs';

export interface Route {
  view: RouteView;
  /** The pipeline property open in the editor, or the instance open in a form. */
  key?: string;
  /** The object of a form or list: `<app>/object/<NAME>/<VERSION>`. */
  object?: string;
  /** The app folder of the app overview: `global/app/<name>`. */
  app?: string;
  /** The run open in the Runs view. */
  run?: string;
}

const VIEWS: readonly RouteView[] = ['editor', 'form', 'list', 'app', 'runs'];
const PARAMS = ['key', 'object', 'app', 'run'] as const;

export function parseRoute(hash: string): Route {
  const [path = '', query = ''] = hash.replace(/^#\/?/, '').split('?');
  const params = new URLSearchParams(query);
  const view = (VIEWS as readonly string[]).includes(path) ? (path as RouteView) : 'editor';
  const route: Route = { view };
  for (const name of PARAMS) {
    const value = params.get(name);
    if (value) route[name] = value;
  }
  return route;
}

export function routeHash(route: Route): string {
  const params = new URLSearchParams();
  for (const name of PARAMS) {
    const value = route[name];
    if (value) params.set(name, value);
  }
  const query = params.toString();
  return `#/${route.view}${query ? `?${query}` : ''}`;
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
