/** The apps feature: the sidebar's app list and, lazily, the app views (overview, forms, lists). */
import { lazy } from 'react';

export { AppsPanel } from './AppsPanel';
export const AppViews = lazy(() => import('./AppViews'));
