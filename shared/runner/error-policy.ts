/**
 * Reads the `onError` / `onCommandError` policy: the short form (THROW, IGNORE, LOG, or RETRY; times=N; wait=S;
 * then=...) or the JSON form of guides/commands_pipelines/50_error_handling.md (`{"action": "RETRY", "times": 3,
 * "wait": 2, "then": {"action": "LOG"}}`). ROLLBACK, a preview the real product has not switched on, is refused.
 */
import { PipeworkError } from '../errors';

export type FinalPolicy = 'THROW' | 'IGNORE' | 'LOG';

export interface ErrorPolicy {
  /** What to do once retries (if any) are used up. */
  then: FinalPolicy;
  /** Extra attempts after the first failure. */
  retries: number;
  /** Seconds to wait between attempts. */
  waitSeconds: number;
}

export const THROW_POLICY: ErrorPolicy = { then: 'THROW', retries: 0, waitSeconds: 0 };

const FINAL = new Set(['THROW', 'IGNORE', 'LOG']);
const MAX_RETRIES = 10;
const MAX_WAIT_SECONDS = 60;

function finalPolicy(word: string, text: string): FinalPolicy {
  const upper = word.trim().toUpperCase();
  if (!FINAL.has(upper)) {
    throw new PipeworkError(
      'PARAM_INVALID',
      `Unknown error policy '${word.trim()}' in '${text}': use THROW, IGNORE, LOG or RETRY.`,
      {
        parameter: 'onError',
      },
    );
  }
  return upper as FinalPolicy;
}

function numberSetting(name: string, raw: string, max: number, text: string): number {
  const n = Number(raw.trim());
  if (!Number.isFinite(n) || n < 0 || n > max) {
    throw new PipeworkError('PARAM_INVALID', `'${name}' in '${text}' must be a number from 0 to ${max}.`, {
      parameter: 'onError',
    });
  }
  return n;
}

function invalid(message: string): PipeworkError {
  return new PipeworkError('PARAM_INVALID', message, { parameter: 'onError' });
}

/** The `action` of the JSON form (or a short form given as its value). */
function actionOf(value: unknown, where: string): string {
  const action = value !== null && typeof value === 'object' ? (value as { action?: unknown }).action : value;
  if (typeof action !== 'string' || action.trim() === '')
    throw invalid(`${where} needs an "action": THROW, IGNORE, LOG or RETRY.`);
  if (action.trim().toUpperCase() === 'ROLLBACK')
    throw invalid(
      'The onError action ROLLBACK is a preview the real product has not switched on; Pipework does not run it. ' +
        'Use THROW, IGNORE, LOG or RETRY (and finally for clean-up).',
    );
  return action;
}

/** The JSON form: `{"action": ..., "times": N, "wait": S, "then": "LOG" | {"action": "LOG"}}`. */
function parseJsonPolicy(value: object): ErrorPolicy {
  const source = JSON.stringify(value);
  const map = value as Record<string, unknown>;
  for (const name of Object.keys(map))
    if (!['action', 'times', 'wait', 'then'].includes(name))
      throw invalid(`Unknown setting '${name}' in onError ${source}: use action, times, wait or then.`);
  const action = actionOf(value, `onError ${source}`).trim().toUpperCase();
  if (action !== 'RETRY') {
    if (map.times !== undefined || map.wait !== undefined || map.then !== undefined)
      throw invalid(`times, wait and then belong to the RETRY action, not ${action} (onError ${source}).`);
    return { then: finalPolicy(action, source), retries: 0, waitSeconds: 0 };
  }
  const then = map.then === undefined ? 'THROW' : actionOf(map.then, `"then" of onError ${source}`);
  return {
    then: finalPolicy(then, source),
    retries:
      map.times === undefined
        ? 1
        : Math.floor(numberSetting('times', String(map.times), MAX_RETRIES, source)),
    waitSeconds:
      map.wait === undefined ? 3 : numberSetting('wait', String(map.wait), MAX_WAIT_SECONDS, source),
  };
}

/** Parses a policy; empty or missing means THROW. Short-form settings are separated by `;` or `,`. */
export function parseErrorPolicy(text: unknown): ErrorPolicy {
  if (text === undefined || text === null || text === '') return THROW_POLICY;
  if (typeof text === 'object' && !Array.isArray(text)) return parseJsonPolicy(text);
  let source = String(text);
  if (source.trim().startsWith('{')) {
    try {
      return parseJsonPolicy(JSON.parse(source) as object);
    } catch (error) {
      if (error instanceof PipeworkError) throw error;
      throw invalid(`onError ${source.slice(0, 200)} is neither a policy name nor valid JSON.`);
    }
  }
  source = source.trim();
  const [head = '', ...settings] = source.split(/[;,]/);
  if (head.trim().toUpperCase() !== 'RETRY') {
    if (settings.some((s) => s.trim() !== '')) finalPolicy('RETRY?', source);
    return { then: finalPolicy(head, source), retries: 0, waitSeconds: 0 };
  }
  const policy: ErrorPolicy = { then: 'THROW', retries: 1, waitSeconds: 3 };
  for (const setting of settings) {
    if (setting.trim() === '') continue;
    const [name = '', value = ''] = setting.split('=');
    switch (name.trim().toLowerCase()) {
      case 'times':
        policy.retries = Math.floor(numberSetting('times', value, MAX_RETRIES, source));
        break;
      case 'wait':
        policy.waitSeconds = numberSetting('wait', value, MAX_WAIT_SECONDS, source);
        break;
      case 'then':
        policy.then = finalPolicy(value, source);
        break;
      default:
        throw new PipeworkError(
          'PARAM_INVALID',
          `Unknown setting '${name.trim()}' in '${source}': use times, wait or then.`,
          {
            parameter: 'onError',
          },
        );
    }
  }
  return policy;
}
