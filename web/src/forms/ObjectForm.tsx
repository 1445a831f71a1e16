/**
 * An app's form: the object schema rendered by the JSON Schema form library, validated in the browser with
 * ajv and again by the server (the authority: its field errors are placed at their fields), stored as
 * `<object>/instance/<uuid>` with the user's rights, or an existing instance edited in place.
 */
import Form from '@rjsf/core';
import type {
  ErrorListProps,
  ErrorSchema,
  Field,
  RJSFSchema,
  RJSFValidationError,
  UiSchema,
} from '@rjsf/utils';
import { customizeValidator } from '@rjsf/validator-ajv8';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { ApiError, useApi } from '../api';
import { configFor, layoutFields } from './app-config';
import { CausedRuns } from './CausedRuns';
import { FileField, type FileFormContext } from './FileField';
import { checkSchema } from '../../../shared/json-schema/check-schema';
import { LayoutTemplate } from './LayoutTemplate';
import { errorTreeOf, normalizeSchema, titleOfPath, uiSchemaOf } from './form-schema';
import styles from './forms.module.css';
import { useFollowEffects } from './useFollowEffects';
import { useFollowRuns } from './useFollowRuns';

/**
 * The form library's ajv validator with its checking done by `checkSchema`: ajv compiles to code, which the
 * workbench's Content Security Policy (no eval) refuses. Error shapes and placement stay the library's.
 */
const validator = customizeValidator({ ajvOptionsOverrides: { strict: false } });
validator.rawValidation = ((schema: unknown, formData: unknown) => ({
  errors: checkSchema(schema, formData),
})) as typeof validator.rawValidation;
validator.isValid = (schema, formData) => checkSchema(schema, formData).length === 0;
const FIELDS: Record<string, Field> = { file: FileField as Field };

/** The error summary above the form: announced when it appears, each message naming its field by title. */
function ErrorSummary({ errors }: ErrorListProps) {
  return (
    <div role="alert" className={styles.summary}>
      <p>
        {errors.length === 1 ? 'One field needs' : `${errors.length} fields need`} attention before
        submitting:
      </p>
      <ul className={styles.errors}>
        {errors.map((e, i) => (
          <li key={i}>{e.stack}</li>
        ))}
      </ul>
    </div>
  );
}
const TEMPLATES = { ErrorListTemplate: ErrorSummary };

interface ServerFieldError {
  instancePath: string;
  message: string;
}

export interface ObjectFormProps {
  /** `<app>/object/<NAME>/<VERSION>`. */
  object: string;
  /** An existing instance to edit. */
  instanceKey?: string;
  onOpenList?: () => void;
}

export function ObjectForm({ object, instanceKey, onOpenList }: ObjectFormProps) {
  const api = useApi();
  const schemaQuery = useQuery({
    queryKey: ['form-schema', object],
    queryFn: () => api.command<unknown>('property.value.get', { key: `${object}/schema` }),
  });
  const app = object.split('/object/')[0] ?? object;
  const configQuery = useQuery({
    queryKey: ['app-configs', app, 'form'],
    queryFn: () =>
      api.command<{ key: string; value?: unknown }[]>('property.list', { pattern: `${app}/form/**` }),
  });
  const instanceQuery = useQuery({
    queryKey: ['form-instance', instanceKey],
    enabled: !!instanceKey,
    queryFn: () => api.command<unknown>('property.value.get', { key: instanceKey! }),
  });
  const prepared = useMemo(() => {
    if (schemaQuery.data === undefined) return undefined;
    try {
      const raw =
        typeof schemaQuery.data === 'string' ? (JSON.parse(schemaQuery.data) as unknown) : schemaQuery.data;
      const schema = normalizeSchema(raw);
      const config = configFor(configQuery.data ?? [], object);
      const ui: UiSchema = uiSchemaOf(schema);
      const shown = layoutFields(config?.layout);
      if (config?.layout && shown.length > 0)
        Object.assign(ui, {
          'ui:order': [...shown, '*'],
          'ui:ObjectFieldTemplate': LayoutTemplate,
          'ui:options': { layout: config.layout },
        });
      return { schema, ui, config };
    } catch (error) {
      return { problem: `The schema of ${object} cannot be used: ${(error as Error).message}` };
    }
  }, [schemaQuery.data, configQuery.data, object]);
  const [data, setData] = useState<unknown>(undefined);
  const [extraErrors, setExtraErrors] = useState<ErrorSchema | undefined>(undefined);
  const [status, setStatus] = useState<{ text: string; error?: boolean } | null>(null);
  const [submitted, setSubmitted] = useState<{ key: string; at: number } | null>(null);
  const [saving, setSaving] = useState(false);
  // Files being uploaded by file fields: the form waits for them, or it would be stored without them.
  const [uploads, setUploads] = useState(0);
  const effects = useFollowEffects(submitted);
  const runs = useFollowRuns(submitted, app);

  if (schemaQuery.isError)
    return (
      <p role="alert" className={styles.problem}>
        The schema {object}/schema cannot be read: {(schemaQuery.error as Error).message}
      </p>
    );
  if (!prepared || configQuery.isPending || (instanceKey && instanceQuery.isPending))
    return <p>Loading the form…</p>;
  if ('problem' in prepared)
    return (
      <p role="alert" className={styles.problem}>
        {prepared.problem}
      </p>
    );

  const submit = async (formData: unknown) => {
    const key = instanceKey ?? `${object}/instance/${crypto.randomUUID()}`;
    setSaving(true);
    setExtraErrors(undefined);
    setStatus(null);
    try {
      const answer = await api.command<{ property?: { value?: string | null } }>(
        'property.schema.put',
        { key, type: 'application/json', evalValue: false },
        { body: JSON.stringify(formData ?? {}), contentType: 'text/plain' },
      );
      setStatus({ text: `Stored as ${key}.` });
      setSubmitted({ key, at: Date.now() });
      // Editing goes on with the value as stored: staged files now name the instance's attachments.
      if (!instanceKey) setData(undefined);
      else if (answer?.property?.value) setData(JSON.parse(answer.property.value) as unknown);
    } catch (error) {
      const value = error instanceof ApiError ? (error.value as { errors?: ServerFieldError[] }) : undefined;
      if (value?.errors?.length) setExtraErrors(errorTreeOf(value.errors) as ErrorSchema);
      setStatus({ text: `Not stored: ${(error as Error).message}`, error: true });
    } finally {
      setSaving(false);
    }
  };

  const schema = prepared.schema as RJSFSchema;
  const title = prepared.config?.title ?? schema.title ?? object.split('/object/')[1];
  const transformErrors = (errors: RJSFValidationError[]) =>
    errors.map((e) => ({ ...e, stack: `${titleOfPath(schema, e.property) || title}: ${e.message ?? ''}` }));
  return (
    <section className={styles.form} aria-label={`Form ${title}`}>
      <header className={styles.header}>
        <h2>{instanceKey ? `Edit ${instanceKey.split('/').pop()}` : `New ${title}`}</h2>
        {onOpenList && (
          <button type="button" onClick={onOpenList}>
            Open list
          </button>
        )}
      </header>
      {prepared.config?.description && <p className={styles.description}>{prepared.config.description}</p>}
      <Form
        schema={prepared.schema}
        uiSchema={{
          ...prepared.ui,
          'ui:submitButtonOptions': {
            submitText: saving ? 'Saving…' : uploads > 0 ? 'Uploading…' : 'Submit',
            props: { disabled: uploads > 0 },
          },
        }}
        formData={data ?? (instanceKey ? instanceQuery.data : undefined)}
        validator={validator}
        fields={FIELDS}
        formContext={
          { instanceKey, uploading: (delta) => setUploads((n) => n + delta) } satisfies FileFormContext
        }
        templates={TEMPLATES}
        transformErrors={transformErrors}
        extraErrors={extraErrors}
        showErrorList="top"
        focusOnFirstError
        noHtml5Validate
        disabled={saving}
        onChange={(e) => setData(e.formData)}
        onSubmit={(e) => {
          if (uploads === 0) void submit(e.formData);
        }}
      />
      <div role="status" aria-live="polite" className={status?.error ? styles.problem : styles.ok}>
        {status?.text}
      </div>
      {submitted && (
        <section aria-label="What the submission caused" className={styles.effects}>
          <h3>What followed</h3>
          <CausedRuns runs={runs} />
          {effects.length === 0 ? (
            runs.length === 0 && <p>Waiting for the app&apos;s listeners…</p>
          ) : (
            <ul>
              {effects.map((e, i) => (
                <li key={i}>
                  {e.event} <code>{e.key}</code>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
    </section>
  );
}
