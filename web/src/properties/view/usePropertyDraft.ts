/**
 * The edited value of a property and its save. The draft remembers the version it started from; a save sends
 * that version, so a change made meanwhile by someone else comes back as a conflict instead of being lost.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useApi } from '../../api';
import { errorText, isApiError } from '../api/error-text';
import { saveProperty } from '../api/property-api';
import type { Property } from '../api/property-types';
import { propertyQueryKey } from '../api/query-keys';

export interface PropertyDraft {
  value: string;
  setValue(value: string): void;
  dirty: boolean;
  /** The stored property moved past the draft's version (seen through events or a failed save). */
  changedMeanwhile: boolean;
  conflict: boolean;
  saving: boolean;
  error: string | null;
  save(): void;
  /** Saves the draft over the newer stored value, after the user has seen the conflict. */
  overwrite(): void;
  /** Drops the draft and takes the stored value. */
  reload(): void;
}

/** Unsaved drafts by key: looking at another property and coming back finds the edit where it was left. */
const unsaved = new Map<string, { base: Property; value: string }>();

export function usePropertyDraft(property: Property): PropertyDraft {
  const api = useApi();
  const queryClient = useQueryClient();
  const [kept] = useState(() => unsaved.get(property.key));
  const [base, setBase] = useState(kept?.base ?? property);
  const [value, setValue] = useState(kept?.value ?? property.value ?? '');
  const [conflict, setConflict] = useState(false);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const dirty = value !== (base.value ?? '');

  // A newer stored version replaces an untouched draft; an edited draft keeps its text and its old version.
  // (Adjusted while rendering, as React advises for state derived from props.)
  if (property.key !== base.key || (!dirty && property.version !== base.version)) {
    setBase(property);
    setValue(property.value ?? '');
    setConflict(false);
  }

  useEffect(() => {
    if (dirty) unsaved.set(base.key, { base, value });
    else unsaved.delete(base.key);
  }, [base, value, dirty]);

  const write = (version: number) => {
    setSaving(true);
    setError(null);
    saveProperty(api, property.key, property.type, value, version).then(
      (saved) => {
        queryClient.setQueryData(propertyQueryKey(saved.key), saved);
        setBase(saved);
        setValue(saved.value ?? '');
        setConflict(false);
        setSaving(false);
      },
      (e: unknown) => {
        setSaving(false);
        if (isApiError(e, 'CONFLICT')) {
          setConflict(true);
          void queryClient.invalidateQueries({ queryKey: propertyQueryKey(property.key) });
        } else setError(errorText(e));
      },
    );
  };

  return {
    value,
    setValue,
    dirty,
    changedMeanwhile: property.version !== base.version,
    conflict,
    saving,
    error,
    save: () => write(base.version),
    overwrite: () => write(property.version),
    reload: () => {
      setBase(property);
      setValue(property.value ?? '');
      setConflict(false);
      setError(null);
    },
  };
}
