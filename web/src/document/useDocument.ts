/**
 * The pipeline being edited: its text and form, and, when it is a stored property, its key and the version it
 * was loaded at. Saving passes that version, so a change made meanwhile is a conflict the user resolves (reload
 * theirs or overwrite with mine), never a silent overwrite.
 */
import { useCallback, useRef, useState } from 'react';
import { ApiError, errorText, useApi, type ApiClient } from '../api';
import { convertPipeline, type PipelineForm } from '../editor';
import { FIRST_PIPELINE, formOfType, type StoredProperty } from './pipeline-property';

export interface Conflict {
  /** My text, in the stored form. */
  mine: string;
  theirs: string;
  theirVersion: number;
}

export interface PipelineDocumentState {
  text: string;
  form: PipelineForm;
  key?: string;
  version?: number;
  /** The form the property is stored in (saving converts back to it). */
  storedForm: PipelineForm;
  dirty: boolean;
  busy?: 'loading' | 'saving';
  problem?: string;
  conflict?: Conflict;
  savedAt?: number;
}

/** The mime type a new stored pipeline gets (a URI is stored as YAML). */
const TYPE_OF_FORM: Record<'yaml' | 'json', string> = {
  yaml: 'application/x-yaml',
  json: 'application/json',
};

const INITIAL: PipelineDocumentState = {
  text: FIRST_PIPELINE,
  form: 'yaml',
  storedForm: 'yaml',
  dirty: false,
};

function readProperty(api: ApiClient, key: string): Promise<StoredProperty> {
  return api.command<StoredProperty>('property.get', { key });
}

export function usePipelineDocument() {
  const api = useApi();
  const [doc, setDoc] = useState<PipelineDocumentState>(INITIAL);
  const current = useRef(doc);
  current.current = doc;

  const change = useCallback((text: string) => {
    // Known at once (a run right after a keystroke must see it), before React renders the new state.
    const before = current.current;
    current.current = { ...before, text, dirty: before.dirty || before.text !== text };
    setDoc((d) => (d.text === text ? d : { ...d, text, dirty: true }));
  }, []);

  /** The text and form as they are now, even between a change and its render. */
  const source = useCallback(
    () => ({
      text: current.current.text,
      form: current.current.form,
      key: current.current.key,
      dirty: current.current.dirty,
    }),
    [],
  );

  const switchForm = useCallback((form: PipelineForm, text: string) => {
    setDoc((d) => ({ ...d, form, text }));
  }, []);

  const load = useCallback(
    async (key: string) => {
      setDoc((d) => ({ ...d, busy: 'loading', problem: undefined, conflict: undefined }));
      try {
        const property = await readProperty(api, key);
        const form = formOfType(property.type);
        setDoc({
          text: property.value ?? '',
          form,
          storedForm: form,
          key: property.key,
          version: property.version,
          dirty: false,
        });
      } catch (error) {
        setDoc((d) => ({ ...d, busy: undefined, problem: `Cannot open ${key}: ${errorText(error)}` }));
      }
    },
    [api],
  );

  const write = useCallback(
    async (text: string, version: number | undefined) => {
      const d = current.current;
      if (!d.key) return;
      setDoc((s) => ({ ...s, busy: 'saving', problem: undefined }));
      try {
        // The text goes as the input body: a `value` parameter would have its #{...} evaluated.
        const saved = await api.command<StoredProperty>(
          'property.put',
          { key: d.key, version },
          { method: 'POST', body: text, contentType: 'text/plain; charset=utf-8' },
        );
        setDoc((s) => ({
          ...s,
          version: saved.version,
          dirty: false,
          busy: undefined,
          conflict: undefined,
          savedAt: Date.now(),
        }));
      } catch (error) {
        if (error instanceof ApiError && error.value.code === 'CONFLICT') {
          const theirs = await readProperty(api, d.key).catch(() => null);
          setDoc((s) => ({
            ...s,
            busy: undefined,
            conflict: {
              mine: text,
              theirs: theirs?.value ?? '',
              theirVersion: theirs?.version ?? Number(error.value.actualVersion),
            },
          }));
        } else setDoc((s) => ({ ...s, busy: undefined, problem: `Not saved: ${errorText(error)}` }));
      }
    },
    [api],
  );

  const save = useCallback(async () => {
    const d = current.current;
    let text: string;
    try {
      text = convertPipeline(d.text, d.form, d.storedForm);
    } catch (error) {
      setDoc((s) => ({ ...s, problem: `Not saved: ${errorText(error)}` }));
      return;
    }
    await write(text, d.version);
  }, [write]);

  /** Conflict: keep mine, written over their version. */
  const overwrite = useCallback(async () => {
    const conflict = current.current.conflict;
    if (conflict) await write(conflict.mine, conflict.theirVersion);
  }, [write]);

  /** Conflict: drop my changes and take theirs. */
  const reload = useCallback(async () => {
    const key = current.current.key;
    if (key) await load(key);
  }, [load]);

  /** Stores the document as a new property `key` (never over an existing one) and makes it the document's. */
  const saveAs = useCallback(
    async (key: string): Promise<void> => {
      const d = current.current;
      const form: PipelineForm = d.form === 'json' ? 'json' : 'yaml';
      const text = convertPipeline(d.text, d.form, form);
      const answer = await api.command<{ property: StoredProperty }>(
        'property.schema.put',
        { key, type: TYPE_OF_FORM[form], existStrategy: 'error' },
        { method: 'POST', body: text, contentType: 'text/plain; charset=utf-8' },
      );
      const saved = answer.property;
      setDoc({
        text,
        form,
        storedForm: form,
        key: saved.key,
        version: saved.version,
        dirty: false,
        savedAt: Date.now(),
      });
    },
    [api],
  );

  const closeConflict = useCallback(() => setDoc((s) => ({ ...s, conflict: undefined })), []);

  const reset = useCallback(() => setDoc(INITIAL), []);

  return { doc, source, change, switchForm, load, save, saveAs, overwrite, reload, closeConflict, reset };
}

export type PipelineDocument = ReturnType<typeof usePipelineDocument>;
