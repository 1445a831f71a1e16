/** Attributes parameters (a JSON object, or its text) as the IAM tables store them. */
import { PipeworkError } from '../../../shared/errors';

export function attributesJsonOf(value: unknown): string | null {
  if (value === undefined || value === null || value === '') return null;
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      parsed = undefined;
    }
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new PipeworkError('PARAM_INVALID', "Parameter 'attributes' must be a JSON object.", {
      parameter: 'attributes',
    });
  }
  return JSON.stringify(parsed);
}
