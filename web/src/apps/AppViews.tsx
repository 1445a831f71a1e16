/** The main area's app views (overview, form, list): one lazy chunk with the form library and the table. */
import type { Route } from '../app/route';
import { ObjectForm } from '../forms/ObjectForm';
import { ObjectList } from '../lists/ObjectList';
import { AppOverview } from './AppOverview';

export interface AppViewsProps {
  route: Route;
  navigate: (route: Route) => void;
  openPipeline: (key: string) => void;
}

export default function AppViews({ route, navigate, openPipeline }: AppViewsProps) {
  if (route.view === 'app' && route.app)
    return (
      <AppOverview
        app={route.app}
        onOpenForm={(object) => navigate({ view: 'form', object })}
        onOpenList={(object) => navigate({ view: 'list', object })}
        onOpenPipeline={openPipeline}
      />
    );
  if (route.view === 'form' && route.object)
    return (
      <ObjectForm
        key={`${route.object}|${route.key ?? ''}`}
        object={route.object}
        instanceKey={route.key}
        onOpenList={() => navigate({ view: 'list', object: route.object })}
      />
    );
  if (route.view === 'list' && route.object)
    return (
      <ObjectList
        object={route.object}
        onOpen={(key) => navigate({ view: 'form', object: route.object, key })}
        onNew={() => navigate({ view: 'form', object: route.object })}
      />
    );
  return <p role="alert">Nothing to show: the address names no app, form or list.</p>;
}
