/** The property module's own HTTP routes (behind authentication): the SSE event stream and streamed attachments. */
import type { RequestHandler } from 'express';
import type { ServerServices } from '../services';
import { attachmentStreamHandler } from './attachment-stream-route';
import { EVENTS_PATH, eventsHandler } from './events-route';

export function propertyRoutes(services: ServerServices): RequestHandler[] {
  const events = eventsHandler(services);
  const attachments = attachmentStreamHandler(services);
  return [
    (req, res, next) => (req.method === 'GET' && req.path === EVENTS_PATH ? events(req, res, next) : next()),
    attachments,
  ];
}
