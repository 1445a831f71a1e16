/**
 * Requests Node's HTTP parser refuses before Express sees them (bad bytes in the URL, headers too large, a
 * client too slow with its headers or body) still get the contract's error shape instead of an empty 400.
 */
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { PipeworkError } from '../../shared/errors';
import { errorBody } from './error-response';

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

function answer(socket: Duplex, error: PipeworkError): void {
  const body = JSON.stringify(errorBody(error, ''));
  socket.end(
    `HTTP/1.1 ${error.status} ${REASONS[error.status] ?? 'Bad Request'}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      answer(socket, new PipeworkError('REQUEST_TIMEOUT', 'The request headers or body arrived too slowly.'));
    } else if (error.code === 'HPE_HEADER_OVERFLOW') {
      answer(socket, new PipeworkError('HEADERS_TOO_LARGE', 'The request headers are too large.'));
    } else {
      answer(
        socket,
        new PipeworkError(
          'BAD_REQUEST',
          'The request is not valid HTTP (for example, raw non-ASCII bytes in the URL).',
        ),
      );
    }
  });
}
