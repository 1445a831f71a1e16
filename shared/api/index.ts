/** The API's endpoints, one file each (or one per small family), and the helpers that call and serve them. */
export * from './endpoint';
export * from './runs/list-runs';
export * from './runs/run-endpoints';
export * from './runs/pin-endpoints';
export * from './pipeline/debug-run';
