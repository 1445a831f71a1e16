/** A property: its value in the code editor, save, move, delete, its metadata and attachments; pipelines open and run. */
import { Suspense, useState } from 'react';
import { useWorkbench } from '../../app/workbench-context';
import { CodeEditor, languageForMime } from '../../editor';
import { errorText, isApiError } from '../api/error-text';
import { isBinaryType, isPipelineProperty } from '../api/property-paths';
import type { Property } from '../api/property-types';
import { ConflictBanner } from './ConflictBanner';
import { AttachmentList } from './AttachmentList';
import { PipelineRunResult, usePipelineRun } from './PipelineRun';
import { PropertyMeta } from './PropertyMeta';
import { useProperty } from './useProperty';
import { usePropertyDraft } from './usePropertyDraft';
import styles from '../properties.module.css';

/** The editor grows with the value, within bounds (pixels; Monaco's default line height is 19). */
function editorHeight(value: string): number {
  const lines = value.split('\n').length;
  return Math.min(360, Math.max(96, lines * 19 + 24));
}

interface PropertyViewProps {
  propertyKey: string;
  onMove(key: string): void;
  onDelete(key: string): void;
}

export function PropertyView({ propertyKey, onMove, onDelete }: PropertyViewProps) {
  const property = useProperty(propertyKey);
  if (property.error) {
    const gone = isApiError(property.error, 'PROPERTY_NOT_FOUND');
    return (
      <div className={styles.detailEmpty} role="status">
        {gone ? `${propertyKey} does not exist (any more).` : errorText(property.error)}
      </div>
    );
  }
  if (!property.data) return <div className={styles.detailEmpty}>Loading…</div>;
  return (
    <LoadedPropertyView key={propertyKey} property={property.data} onMove={onMove} onDelete={onDelete} />
  );
}

function LoadedPropertyView({
  property,
  onMove,
  onDelete,
}: { property: Property } & Omit<PropertyViewProps, 'propertyKey'>) {
  const draft = usePropertyDraft(property);
  const workbench = useWorkbench();
  const run = usePipelineRun();
  const [showMeta, setShowMeta] = useState(true);
  const binary = isBinaryType(property.type);
  const pipeline = isPipelineProperty(property.key, property.type);

  return (
    <article className={styles.propertyView} aria-label={`Property ${property.key}`}>
      <header className={styles.viewHeader}>
        <h2 title={property.key}>{property.key}</h2>
        <div className={styles.viewActions}>
          {pipeline && (
            <>
              <button
                type="button"
                className={styles.button}
                onClick={() => workbench.openPipeline(property.key)}
              >
                Open in editor
              </button>
              <button type="button" className={styles.button} onClick={() => run.mutate(draft.value)}>
                Run
              </button>
            </>
          )}
          <button type="button" className={styles.button} onClick={() => onMove(property.key)}>
            Move
          </button>
          <button
            type="button"
            className={`${styles.button} ${styles.dangerText}`}
            onClick={() => onDelete(property.key)}
          >
            Delete
          </button>
          <button
            type="button"
            className={`${styles.button} ${styles.primary}`}
            disabled={!draft.dirty || draft.saving || binary}
            onClick={draft.save}
          >
            {draft.saving ? 'Saving…' : 'Save'}
          </button>
        </div>
      </header>
      <ConflictBanner draft={draft} version={property.version} />
      {draft.error && (
        <p role="alert" className={styles.error}>
          {draft.error}
        </p>
      )}
      <div className={styles.editorBox} data-testid="property-value">
        <Suspense fallback={<div className={styles.muted}>Loading editor…</div>}>
          <CodeEditor
            value={draft.value}
            language={languageForMime(property.type)}
            readOnly={binary}
            onChange={draft.setValue}
            height={editorHeight(draft.value)}
          />
        </Suspense>
      </div>
      <PipelineRunResult run={run} />
      <section className={styles.section}>
        <h3>
          <button
            type="button"
            className={styles.link}
            aria-expanded={showMeta}
            onClick={() => setShowMeta((s) => !s)}
          >
            {showMeta ? '▾' : '▸'} Metadata
          </button>
        </h3>
        {showMeta && <PropertyMeta property={property} />}
      </section>
      <AttachmentList propertyKey={property.key} />
    </article>
  );
}
