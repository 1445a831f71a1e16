/** Attacks of the catalogue: http shapes. */
import type { RawAttack } from './attack';

/** Request shapes that smuggle, split or malform at the HTTP layer; Node's parser must refuse them. */
export const HTTP_SHAPES: RawAttack[] = [
  {
    id: 'H01',
    what: 'Content-Length with Transfer-Encoding',
    raw: 'POST /api/v3/pipeline HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n',
    status: 400,
  },
  {
    id: 'H02',
    what: 'two different Content-Length headers',
    raw: 'POST /api/v3/pipeline HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nContent-Length: 40\r\n\r\nabcd',
    status: 400,
  },
  {
    id: 'H03',
    what: 'an invalid chunk size',
    raw: 'POST /api/v3/pipeline HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n',
    status: 400,
  },
  {
    id: 'H04',
    what: 'Transfer-Encoding other than chunked last',
    raw: 'POST /api/v3/pipeline HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, identity\r\n\r\n0\r\n\r\n',
    status: 400,
  },
  {
    id: 'H05',
    what: 'an obsolete folded header',
    raw: 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\n\r\n',
    status: 400,
  },
  {
    id: 'H06',
    what: 'a bare LF header line ending with a space-split name',
    raw: 'GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header: v\r\n\r\n',
    status: 400,
  },
  { id: 'H07', what: 'no Host header in HTTP/1.1', raw: 'GET /healthz HTTP/1.1\r\n\r\n', status: 400 },
  {
    id: 'H08',
    what: 'headers larger than the server accepts',
    raw: `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    status: 431,
  },
  {
    id: 'H09',
    what: 'raw non-ASCII bytes in the request line',
    raw: 'GET /api/\u00ff\u00fe HTTP/1.1\r\nHost: x\r\n\r\n',
    status: 400,
  },
  {
    id: 'H10',
    what: 'a NUL in a header value',
    raw: 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n',
    status: 400,
  },
  {
    id: 'H11',
    what: 'a CR without LF inside a header',
    raw: 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\rInjected: 1\r\n\r\n',
    status: 400,
  },
  {
    id: 'H12',
    what: 'a space before the colon',
    raw: 'GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length : 5\r\n\r\nabcde',
    status: 400,
  },
];
