/** The steps of a parsed pipeline as the flow view needs them (computed in the validator worker). */
import type { CommandLookup, PipelineScript } from '../../../shared/pipeline';
import type { FlowStep } from './validator-protocol';

const STARTS_PIPELINE: Record<string, string[]> = {
  'pipeline.start': ['key', 'uri'],
  'pipeline.run': ['path', 'key', 'uri'],
  call: ['uri', 'key'],
};

function short(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

/** The stored pipeline's key in `$uri:property:<key>`, `$uri:pipeline:<key>`, `property:<key>` or a bare key. */
function keyOfTarget(value: string): string | undefined {
  if (value.includes('#{')) return undefined;
  const match = /^(?:\$uri:)?(?:property|pipeline):(.+)$/.exec(value);
  return match ? match[1] : value;
}

export function flowStepsOf(script: PipelineScript, commands: CommandLookup): FlowStep[] {
  return script.steps.map((step) => {
    const contract = commands.get(step.command)?.contract;
    const out: FlowStep = { index: step.index, command: step.command };
    if (step.position) {
      out.line = step.position.line;
      out.column = step.position.column;
    }
    if (contract?.controlFlow) out.role = contract.controlFlow;
    const main =
      step.defaultValue ?? (contract?.defaultParameter ? step.params[contract.defaultParameter] : undefined);
    const detail = short(main ?? step.params.true ?? step.params.condition);
    if (detail) out.detail = detail;
    const names = STARTS_PIPELINE[contract?.name ?? step.command];
    if (names) {
      const given = [step.defaultValue, ...names.map((n) => step.params[n])].find(
        (v) => typeof v === 'string',
      );
      const key = typeof given === 'string' ? keyOfTarget(given) : undefined;
      if (key) out.target = key;
    }
    return out;
  });
}
