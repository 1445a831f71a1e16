/** The API's endpoints, one file each (or one per small family), and the helpers that call and serve them. */
export * from './endpoint';
export * from './runs/list-runs';
export * from './runs/run-endpoints';
export * from './runs/pin-endpoints';
export * from './pipeline/debug-run';
export * from './pipeline/stored-pipeline';
export * from './events/event-stream';
export * from './webhooks/receive-webhook';
export * from './ops/ops-endpoints';
export * from './delivery/delivery-page';
export * from './auth/openid-connect';
