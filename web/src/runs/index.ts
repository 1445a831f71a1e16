/** The Runs view: the run history of every way a pipeline starts, its steps, re-runs and pins (lazy chunk). */
import { lazy } from 'react';

export const RunsView = lazy(() => import('./RunsView'));
export { listPins, mayHavePins } from './runs-api';
