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
  const source = text.trim();
  const template = asTemplate(source);
  try {
    return { ok: true, value: evaluateTemplate(template, scope) ?? null };
  } catch (error) {
    if (isPipeworkError(error)) {
      // Columns count in what the user typed, not in the `#{...}` the console wrapped it in.
      const shift = template === source ? 0 : 2;
      const at = typeof error.details.column === 'number' ? error.details.column - shift : undefined;
      const message = error.message.replace(/^\d+:\d+:\s*/, '');
      return { ok: false, code: error.code, message, column: at };
    }
    return { ok: false, code: 'PEL_EVAL', message: error instanceof Error ? error.message : String(error) };
  }
}
