/** The events module's public face: the bus, the event.listen dispatcher and the event-chain depth. */
export {
  EventBus,
  eventJson,
  type EventBusOptions,
  type EventListener,
  type PipeworkEvent,
} from './event-bus';
export {
  EventListenDispatcher,
  eventBody,
  keysOfEvent,
  type EventListenDispatcherOptions,
  type EventListenerRegistration,
} from './event-listen-dispatcher';
export { currentEventDepth, runAtEventDepth } from './event-context';
