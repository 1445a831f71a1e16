/**
 * The property's attachments: uploaded by dropping files on the list (or choosing them), previewed (images,
 * PDF, text), downloaded with the session's credentials, and deleted after a confirmation.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type DragEvent } from 'react';
import { useApi } from '../../api';
import { errorText } from '../api/error-text';
import { deleteAttachment, downloadAttachment, listAttachments, uploadAttachment } from '../api/property-api';
import type { Attachment } from '../api/property-types';
import { attachmentsQueryKey } from '../api/query-keys';
import { AttachmentPreview } from './AttachmentPreview';
import styles from '../properties.module.css';

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

function save(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function useAttachmentActions(propertyKey: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: attachmentsQueryKey(propertyKey) });
  const run = async (label: string, work: () => Promise<unknown>) => {
    setBusy(label);
    setProblem(null);
    try {
      await work();
    } catch (error) {
      setProblem(errorText(error));
    } finally {
      setBusy(null);
      await refresh();
    }
  };
  return {
    busy,
    problem,
    upload: (files: File[]) =>
      run(`Uploading ${files.map((f) => f.name).join(', ')}…`, async () => {
        for (const file of files) await uploadAttachment(api, propertyKey, file);
      }),
    remove: (name: string) => run(`Deleting ${name}…`, () => deleteAttachment(api, propertyKey, name)),
    download: (name: string) =>
      run(`Downloading ${name}…`, async () => save(await downloadAttachment(api, propertyKey, name), name)),
  };
}

function AttachmentRow(props: {
  propertyKey: string;
  attachment: Attachment;
  open: boolean;
  onToggle(): void;
  onDownload(): void;
  onDelete(): void;
}) {
  const { propertyKey, attachment: a, open, onToggle, onDownload, onDelete } = props;
  return (
    <li className={styles.attachment} data-testid="attachment">
      <div className={styles.attachmentRow}>
        <button type="button" className={styles.link} aria-expanded={open} onClick={onToggle}>
          {a.name}
        </button>
        <span className={styles.muted}>
          {a.contentType} · {size(a.length)}
        </span>
        <button
          type="button"
          className={styles.smallAction}
          onClick={onDownload}
          aria-label={`Download ${a.name}`}
        >
          Download
        </button>
        <button
          type="button"
          className={styles.smallAction}
          onClick={onDelete}
          aria-label={`Delete ${a.name}`}
        >
          Delete
        </button>
      </div>
      {open && <AttachmentPreview propertyKey={propertyKey} attachment={a} />}
    </li>
  );
}

export function AttachmentList({ propertyKey }: { propertyKey: string }) {
  const api = useApi();
  const attachments = useQuery({
    queryKey: attachmentsQueryKey(propertyKey),
    queryFn: ({ signal }) => listAttachments(api, propertyKey, signal),
  });
  const actions = useAttachmentActions(propertyKey);
  const [open, setOpen] = useState<string | null>(null);
  const [over, setOver] = useState(false);
  const list = attachments.data ?? [];

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    const files = [...event.dataTransfer.files];
    if (files.length > 0) void actions.upload(files);
  };
  const confirmDelete = (name: string) => {
    if (window.confirm(`Delete the attachment ${name}? This cannot be undone.`)) void actions.remove(name);
  };

  return (
    <section
      aria-label="Attachments"
      className={`${styles.section} ${styles.dropZone} ${over ? styles.dropOver : ''}`}
      data-testid="attachments"
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      <h3>Attachments</h3>
      {attachments.error && <p className={styles.error}>{errorText(attachments.error)}</p>}
      {list.length === 0 ? (
        <p className={styles.muted}>{attachments.isPending ? 'Loading…' : 'None.'}</p>
      ) : (
        <ul className={styles.attachments}>
          {list.map((a) => (
            <AttachmentRow
              key={a.uuid}
              propertyKey={propertyKey}
              attachment={a}
              open={open === a.name}
              onToggle={() => setOpen(open === a.name ? null : a.name)}
              onDownload={() => void actions.download(a.name)}
              onDelete={() => confirmDelete(a.name)}
            />
          ))}
        </ul>
      )}
      <label className={styles.uploadLabel}>
        Drop files here, or <span className={styles.link}>choose files</span>
        <input
          type="file"
          multiple
          className={styles.visuallyHidden}
          aria-label="Upload attachments"
          onChange={(event) => {
            const files = [...(event.target.files ?? [])];
            event.target.value = '';
            if (files.length > 0) void actions.upload(files);
          }}
        />
      </label>
      {actions.busy && (
        <p className={styles.muted} role="status">
          {actions.busy}
        </p>
      )}
      {actions.problem && (
        <p className={styles.error} role="alert">
          {actions.problem}
        </p>
      )}
    </section>
  );
}
