/** YAML / JSON / URI: switches the pipeline being edited to another form, or says why it cannot. */
import { useEffect, useState } from 'react';
import { convertPipeline, yamlHasComments } from './convert';
import { defaultParameters, loadPipelineSchema } from './schema';
import type { PipelineForm } from './types';

const FORMS: { form: PipelineForm; label: string }[] = [
  { form: 'yaml', label: 'YAML' },
  { form: 'json', label: 'JSON' },
  { form: 'uri', label: 'URI' },
];

export interface PipelineFormSwitchProps {
  form: PipelineForm;
  text: string;
  /** Called with the new form and the pipeline converted to it. */
  onSwitch(form: PipelineForm, text: string): void;
  /** The pipeline schema (for the short form `- log: text` in a URI); default: the public endpoint's. */
  fetchSchema?(): Promise<object>;
}

export function PipelineFormSwitch({ form, text, onSwitch, fetchSchema }: PipelineFormSwitchProps) {
  const [error, setError] = useState<string | null>(null);
  const [defaults, setDefaults] = useState<Map<string, string>>(new Map());

  useEffect(() => {
    let live = true;
    loadPipelineSchema(fetchSchema).then(
      (schema) => live && setDefaults(defaultParameters(schema)),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [fetchSchema]);

  const switchTo = (target: PipelineForm) => {
    if (target === form) return;
    const dropsComments = form === 'yaml' && yamlHasComments(text);
    if (
      dropsComments &&
      !window.confirm(
        `${target.toUpperCase()} cannot hold comments: switching drops the comments of this YAML. Switch anyway?`,
      )
    )
      return;
    try {
      const next = convertPipeline(text, form, target, { defaultParameter: (name) => defaults.get(name) });
      setError(null);
      onSwitch(target, next);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <div className="pipeline-form-switch">
      <div role="group" aria-label="Pipeline form">
        {FORMS.map(({ form: f, label }) => (
          <button key={f} type="button" aria-pressed={f === form} onClick={() => switchTo(f)}>
            {label}
          </button>
        ))}
      </div>
      {error && (
        <p role="alert" className="form-switch-error">
          Cannot switch: {error}
        </p>
      )}
    </div>
  );
}
