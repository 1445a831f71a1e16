/**
 * Request and response classes whose objects are born with the Express app's prototypes. Express gives every
 * request and response the app's prototype as it arrives (`Object.setPrototypeOf`); an object whose prototype
 * changes after it was made loses V8's fast paths, in Node's HTTP code as well as ours. Here the app's
 * prototypes become these classes' own, so the switch finds the prototype already in place and changes
 * nothing: a bare route costs a third of the CPU it did (`docs/operations.md`, "Requests born as the app's").
 */
import { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';

export interface AppRequestClasses {
  IncomingMessage: typeof IncomingMessage;
  ServerResponse: typeof ServerResponse;
}

/** Call once per app, before it serves: it puts the classes' prototypes in the app's place. */
export function requestClassesOf(app: Express): AppRequestClasses {
  class AppRequest extends IncomingMessage {}
  class AppResponse extends ServerResponse {}
  // The chain stays what Express built (the app's request, Express's, Node's); it only gains a first link.
  Object.setPrototypeOf(AppRequest.prototype, app.request);
  Object.setPrototypeOf(AppResponse.prototype, app.response);
  app.request = AppRequest.prototype as Express['request'];
  app.response = AppResponse.prototype as Express['response'];
  return { IncomingMessage: AppRequest, ServerResponse: AppResponse as typeof ServerResponse };
}
