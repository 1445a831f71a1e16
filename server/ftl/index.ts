/**
 * The one FreeMarker engine of the server (`transform.ftl`, `mail.send` and `property.send.delivery`
 * templates): read with ftl-parse, run by the budgeted evaluator. Errors name the command and the parameter.
 */
import { isPipeworkError, PipeworkError } from '../../shared/errors';
import { FtlEvaluator, type FtlLimits } from './ftl-eval';
import { parseFtl } from './ftl-parse';

export { DEFAULT_FTL_LIMITS, type FtlLimits } from './ftl-eval';

export interface RenderFtlOptions {
  /** Who renders, for messages: `transform.ftl`, `mail.send`. */
  label: string;
  /** The parameter that holds the template. */
  parameter: string;
  limits?: Partial<FtlLimits>;
}

/** Renders `template` with `model`'s fields as names; PARAM_INVALID / LIMIT_EXCEEDED name `label` and `parameter`. */
export function renderFtl(
  template: string,
  model: Record<string, unknown>,
  options: RenderFtlOptions,
): string {
  try {
    return new FtlEvaluator(model, options.limits).render(parseFtl(template));
  } catch (error) {
    if (!isPipeworkError(error)) throw error;
    throw new PipeworkError(error.code, `${options.label}: ${error.message}`, {
      ...error.details,
      parameter: options.parameter,
    });
  }
}
