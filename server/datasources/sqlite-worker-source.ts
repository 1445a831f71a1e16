/**
 * The program of a SQLite data source's worker thread, as plain JavaScript text (run with `eval`, so the
 * same code works from the sources, in tests and in the bundled server). The worker holds the file open
 * (read-only unless the source allows writes) and answers one query at a time; the main thread ends it
 * when a query passes its time limit, which better-sqlite3 alone cannot interrupt.
 */
export const SQLITE_WORKER_SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { readonly: !workerData.writable, fileMustExist: true });
db.defaultSafeIntegers(true);
// Statements that reach other files or steer transactions are not for pipelines, on any source.
const REFUSED = /^(ATTACH|DETACH|VACUUM|BEGIN|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE)$/i;

function firstKeyword(sql) {
  const rest = sql.replace(/^(\s+|--[^\n]*(\n|$)|\/\*[\s\S]*?\*\/)*/, '');
  const match = /^[A-Za-z]+/.exec(rest);
  return match ? match[0] : '';
}

function bind(params) {
  if (Array.isArray(params)) return params;
  return [params];
}

function run(message) {
  const keyword = firstKeyword(message.sql);
  if (REFUSED.test(keyword)) {
    return { error: { kind: 'refused', message: keyword.toUpperCase() + ' is not allowed in sql.query.' } };
  }
  const stmt = db.prepare(message.sql);
  if (!stmt.readonly && !workerData.writable) {
    return { error: { kind: 'readonly', message: 'the statement writes' } };
  }
  const args = bind(message.params);
  if (!stmt.reader) {
    const info = stmt.run(...args);
    return { columns: ['changes'], rows: [[info.changes]] };
  }
  stmt.raw(true);
  const columns = stmt.columns().map((c) => c.name);
  const rows = [];
  for (const row of stmt.iterate(...args)) {
    rows.push(row);
    if (rows.length > message.maxRows) break;
  }
  return { columns, rows };
}

parentPort.on('message', (message) => {
  let answer;
  try {
    answer = run(message);
  } catch (error) {
    answer = { error: { kind: 'sql', message: String(error && error.message ? error.message : error) } };
  }
  parentPort.postMessage({ id: message.id, ...answer });
});
`;
