/**
 * What a script may reach of the server while it runs, as the principal of its pipeline: the PEL utilities
 * (`pi.util.<utility>.<fn>(...)`, JSON in and out), a fresh uuid, and log lines into the pipeline's log and trace.
 */
import { randomUUID } from 'node:crypto';
import type { Principal } from '../../shared/auth';
import type { CommandContext } from '../../shared/commands';
import { UTILITY_SPECS, defaultUtilities, type PelUtilities } from '../../shared/pel';
import { decodePropertyValue, type Property } from '../../shared/property';
import { describeJsonRefusal, stringifyBounded } from '../../shared/values';
import { utilitiesFor } from '../pipeline/pel-utilities';
import type { ServerServices } from '../services';
import type { ScriptHost } from './script-pool';
import { slotKeyOf } from '../fairness/run-slots';

/** The largest JSON text a host call answers to a script. */
const MAX_ANSWER_CHARS = 2_000_000;
/** The largest JSON text of a host call's arguments. */
const MAX_ARGUMENT_CHARS = 1_000_000;
/** Host calls one run may make. */
const MAX_HOST_CALLS = 100_000;

/** `[utility, [function, ...]]` for every PEL utility, as the sandbox builds `pi.util` from it. */
export const UTILITY_CATALOG_TEXT = JSON.stringify(
  UTILITY_SPECS.map((spec) => [spec.name, Object.keys(spec.functions)]),
);

function answer(value: unknown): string {
  if (value === undefined) return '';
  const json = stringifyBounded(value, MAX_ANSWER_CHARS);
  if (!json.ok) throw new Error(`The answer ${describeJsonRefusal(json.reason, MAX_ANSWER_CHARS)}.`);
  return json.text;
}

function callUtility(utilities: PelUtilities, payload: unknown): unknown {
  const { utility, fn, args } = (payload ?? {}) as { utility?: unknown; fn?: unknown; args?: unknown };
  const functions =
    typeof utility === 'string' && Object.hasOwn(utilities, utility) ? utilities[utility] : undefined;
  const target =
    functions && typeof fn === 'string' && Object.hasOwn(functions, fn) ? functions[fn] : undefined;
  if (typeof target !== 'function') throw new Error(`No utility function @${String(utility)}.${String(fn)}.`);
  return target(...(Array.isArray(args) ? args : []));
}

/** `pi.property.get(key)`: the value, or null when the key is missing or not readable by the caller. */
function propertyValue(utilities: PelUtilities, key: unknown): unknown {
  const property = utilities.property?.get?.(key) as Property | null | undefined;
  return property ? decodePropertyValue(property) : null;
}

function dispatch(kind: string, payloadText: string, utilities: () => PelUtilities): string {
  if (kind === 'uuid') return answer(randomUUID());
  if (kind === 'util') return answer(callUtility(utilities(), JSON.parse(payloadText)));
  if (kind === 'property') return answer(propertyValue(utilities(), JSON.parse(payloadText)));
  throw new Error(`Unknown host call '${kind}'.`);
}

/**
 * Host calls run on the server's event loop, so one script may spend at most a quarter of its time limit
 * in them, make at most MAX_HOST_CALLS of them and pass at most MAX_ARGUMENT_CHARS of arguments to each.
 * `principal`: who the script's utilities act as (a stored script: the caller bound by its author).
 */
export function scriptHostFor(
  ctx: CommandContext<ServerServices>,
  principal: Principal | null = ctx.principal,
): ScriptHost {
  let utilities: PelUtilities | undefined;
  const utilitiesOnce = () =>
    (utilities ??= { ...defaultUtilities, ...utilitiesFor(ctx.services)(principal) });
  const budgetMillis = ctx.services.scripts.config.timeoutMillis / 4;
  let calls = 0;
  let spentMillis = 0;
  return {
    log: (level, message) => ctx.log(level, message),
    signal: ctx.abortSignal(),
    owner: slotKeyOf(ctx.principal),
    call(kind, payloadText) {
      if (++calls > MAX_HOST_CALLS)
        throw new Error(`The script made more than ${MAX_HOST_CALLS} utility calls.`);
      if (spentMillis > budgetMillis) {
        throw new Error('interrupted: the script spent more than its share of time in utility calls');
      }
      if (payloadText.length > MAX_ARGUMENT_CHARS) {
        throw new Error(`The arguments of a utility call are larger than ${MAX_ARGUMENT_CHARS} characters.`);
      }
      const started = performance.now();
      try {
        return dispatch(kind, payloadText, utilitiesOnce);
      } finally {
        spentMillis += performance.now() - started;
      }
    },
  };
}
