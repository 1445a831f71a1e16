/**
 * Evaluates an expression against a recorded message, in the browser, with the project's own PEL (the same
 * code the server runs). A bare expression (`vars.x + 1`) is read as `#{vars.x + 1}`.
 */
import { isPipeworkError } from '../../../shared/errors';
import { evaluateTemplate } from '../../../shared/pel';
import type { StepMessage } from '../run/run-types';

export type Evaluation =
  { ok: true; value: unknown } | { ok: false; code: string; message: string; column?: number };

export function asTemplate(text: string): string {
  return text.includes('#{') ? text : `#{${text}}`;
}

export function evaluateInMessage(text: string, message: StepMessage): Evaluation {
  // A copy: an expression that assigns must not change the recorded message.
  const scope = structuredClone({ ...message, request: null, exception: null });
  try {
    return { ok: true, value: evaluateTemplate(asTemplate(text.trim()), scope) ?? null };
  } catch (error) {
    if (isPipeworkError(error)) {
      const column = typeof error.details.column === 'number' ? error.details.column : undefined;
      return { ok: false, code: error.code, message: error.message, column };
    }
    return { ok: false, code: 'PEL_EVAL', message: error instanceof Error ? error.message : String(error) };
  }
}
