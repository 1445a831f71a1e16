/**
 * The file field of a form (the real product's upload shape). A small file is stored inline:
 * {filename, contentLength, contentType, contentEncoding: base64, content}. A larger one is uploaded first,
 * in chunks with progress shown, to a staging key of the user's own, and the field names it:
 * {filename, contentLength, contentType, attachment: <staging key>}; the server moves it onto the instance
 * when the form is stored (then `attachment` is its name there, and it can be downloaded here). Files over
 * the limit are refused at the field before anything is sent.
 */
import type { FieldProps } from '@rjsf/utils';
import { useState, type DragEvent } from 'react';
import {
  FORM_INLINE_FILE_BYTES,
  MAX_FORM_FILE_BYTES,
  bytesToBase64,
  type FormFileValue,
} from '../../../shared/property';
import { useApi } from '../api';
import { downloadAttachment } from '../properties/api/property-api';
import styles from './forms.module.css';
import { stageUpload } from './stage-upload';

export { MAX_FORM_FILE_BYTES };

/** What the form passes to its fields: the instance being edited, whose attachments can be downloaded. */
export interface FileFormContext {
  instanceKey?: string;
  /** Told +1 when an upload starts and -1 when it ends: the form is not submitted while one runs. */
  uploading?: (delta: 1 | -1) => void;
}

async function readFile(file: File): Promise<FormFileValue> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  return {
    filename: file.name,
    contentLength: bytes.length,
    contentType: file.type || 'application/octet-stream',
    contentEncoding: 'base64',
    content: bytesToBase64(bytes),
  };
}

const megabytes = (bytes: number) => (bytes / 1048576).toFixed(1);

/** A stored attachment's name (a staging key, not yet stored, has a `/`). */
function storedAttachment(value: FormFileValue | undefined): string | undefined {
  return value?.attachment && !value.attachment.includes('/') ? value.attachment : undefined;
}

export function FileField(props: FieldProps<FormFileValue | undefined>) {
  const { schema, formData, onChange, fieldPathId, name, required, disabled, readonly, rawErrors } = props;
  const api = useApi();
  const { instanceKey, uploading } = (props.registry.formContext ?? {}) as FileFormContext;
  const [problem, setProblem] = useState<string | null>(null);
  const [over, setOver] = useState(false);
  const [upload, setUpload] = useState<{ name: string; sent: number; total: number } | null>(null);
  const id = fieldPathId.$id;
  const title = (typeof schema.title === 'string' ? schema.title : name).replace(/\s*\*$/, '');
  const take = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > MAX_FORM_FILE_BYTES) {
      setProblem(`${file.name} is ${megabytes(file.size)} MB: at most ${MAX_FORM_FILE_BYTES / 1048576} MB.`);
      return;
    }
    setProblem(null);
    if (file.size <= FORM_INLINE_FILE_BYTES) {
      onChange(await readFile(file), fieldPathId.path);
      return;
    }
    setUpload({ name: file.name, sent: 0, total: file.size });
    uploading?.(1);
    try {
      const key = await stageUpload(api, file, (sent) =>
        setUpload({ name: file.name, sent, total: file.size }),
      );
      const staged: FormFileValue = {
        filename: file.name,
        contentLength: file.size,
        contentType: file.type || 'application/octet-stream',
        attachment: key,
      };
      onChange(staged, fieldPathId.path);
    } catch (error) {
      setProblem(`${file.name} could not be uploaded: ${(error as Error).message}`);
    } finally {
      setUpload(null);
      uploading?.(-1);
    }
  };
  const download = async (attachment: string) => {
    try {
      const blob = await downloadAttachment(api, instanceKey!, attachment);
      const link = document.createElement('a');
      link.href = URL.createObjectURL(blob);
      link.download = formData?.filename ?? attachment;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    } catch (error) {
      setProblem((error as Error).message);
    }
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    if (!disabled && !readonly && !upload) void take(event.dataTransfer.files[0]);
  };
  const errors = [...(problem ? [problem] : []), ...(rawErrors ?? [])];
  const attachment = storedAttachment(formData);
  return (
    <div
      className={`${styles.drop} ${over ? styles.dropOver : ''}`}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      <label htmlFor={id} className={styles.label}>
        {title}
        {required ? ' *' : ''}
      </label>
      <input
        id={id}
        type="file"
        disabled={disabled || readonly || !!upload}
        aria-invalid={errors.length > 0}
        aria-describedby={`${id}__help`}
        onChange={(e) => void take(e.target.files?.[0])}
      />
      <p id={`${id}__help`} className={styles.help}>
        {formData?.filename
          ? `${formData.filename} (${formData.contentLength} bytes)`
          : 'Choose a file or drop it here.'}
      </p>
      {upload && (
        <p className={styles.help}>
          <progress aria-label={`Uploading ${upload.name}`} max={upload.total} value={upload.sent} />{' '}
          <span aria-live="polite">
            Uploading {upload.name}: {megabytes(upload.sent)} of {megabytes(upload.total)} MB
          </span>
        </p>
      )}
      {attachment && instanceKey && formData?.filename && (
        <button type="button" onClick={() => void download(attachment)}>
          Download {formData.filename}
        </button>
      )}
      {formData?.filename && !readonly && (
        <button type="button" onClick={() => onChange(undefined, fieldPathId.path)}>
          Remove {formData.filename}
        </button>
      )}
      {errors.length > 0 && (
        <ul className={styles.errors} role="alert">
          {errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
