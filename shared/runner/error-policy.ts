/** Reads the `onError` / `onCommandError` policy: THROW, IGNORE, LOG, or RETRY; times=N; wait=S; then=... */
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

/** Parses a policy text; empty or missing means THROW. Settings are separated by `;` or `,`. */
export function parseErrorPolicy(text: unknown): ErrorPolicy {
  if (text === undefined || text === null || text === '') return THROW_POLICY;
  const source = String(text);
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
