// The JavaScript that builds `pi` inside each fresh QuickJS context. It receives the two host functions (never
// put on the global object), the message and arguments as JSON text and the names of the PEL utilities, and
// returns two functions: one calls the script's `command(pi)`, the other writes a result as JSON text.
export const PRELUDE = String.raw`(function (hostCall, hostLog, inputText, catalogText) {
  'use strict';
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const input = parse(inputText);
  const call = (kind, payload) => {
    const text = hostCall(kind, stringify(payload === undefined ? null : payload));
    return text === '' ? undefined : parse(text);
  };
  const describe = (part) => (typeof part === 'string' ? part : stringify(part) ?? String(part));
  const log = {};
  for (const level of ['trace', 'debug', 'info', 'warn', 'error']) {
    log[level] = (...parts) => hostLog(level.toUpperCase(), parts.map(describe).join(' '));
  }
  // Built on first use: most scripts never touch pi.util, and its hundreds of functions cost time per run.
  let util;
  const buildUtil = () => {
    const built = {};
    for (const [name, functions] of parse(catalogText)) {
      const utility = {};
      for (const fn of functions) utility[fn] = (...args) => call('util', { utility: name, fn, args });
      built[name] = Object.freeze(utility);
    }
    built.timestamp = () => call('util', { utility: 'date', fn: 'timestamp', args: [] });
    built.uuid = () => call('uuid', null);
    return Object.freeze(built);
  };
  const property = Object.freeze({
    get: (key) => call('property', key) ?? null,
    exists: (key) => call('util', { utility: 'property', fn: 'exists', args: [key] }),
  });
  const message = { body: input.body, headers: input.headers, vars: input.vars };
  const pi = Object.freeze({
    message,
    args: input.args,
    log: Object.freeze(log),
    get util() {
      return (util ??= buildUtil());
    },
    property,
  });
  globalThis.pi = pi;
  globalThis.console = Object.freeze({ log: log.info, info: log.info, debug: log.debug, warn: log.warn, error: log.error });
  const runCommand = () => {
    if (typeof globalThis.command !== 'function') {
      throw new TypeError('The script must define a function command().');
    }
    return globalThis.command(pi);
  };
  const toJson = (result) => {
    const output = result === undefined ? message.body : result;
    return output === undefined ? undefined : stringify(output);
  };
  return [runCommand, toJson];
})`;
