/**
 * The file field of a form (the real product's upload shape: {filename, contentLength, contentType,
 * contentEncoding: base64, content}): a labelled file input that also takes a dropped file. Files over the
 * limit are refused at the field before anything is sent.
 */
import type { FieldProps } from '@rjsf/utils';
import { useState, type DragEvent } from 'react';
import { bytesToBase64 } from '../../../shared/property';
import styles from './forms.module.css';

/** The largest file a form takes inline (the server's request limit is larger; the JSON grows by a third). */
export const MAX_FORM_FILE_BYTES = 5 * 1024 * 1024;

export interface FormFile {
  filename: string;
  contentLength: number;
  contentType: string;
  contentEncoding: 'base64';
  content: string;
}

async function readFile(file: File): Promise<FormFile> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  return {
    filename: file.name,
    contentLength: bytes.length,
    contentType: file.type || 'application/octet-stream',
    contentEncoding: 'base64',
    content: bytesToBase64(bytes),
  };
}

export function FileField(props: FieldProps<FormFile | undefined>) {
  const { schema, formData, onChange, fieldPathId, name, required, disabled, readonly, rawErrors } = props;
  const [problem, setProblem] = useState<string | null>(null);
  const [over, setOver] = useState(false);
  const id = fieldPathId.$id;
  const title = (typeof schema.title === 'string' ? schema.title : name).replace(/\s*\*$/, '');
  const take = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > MAX_FORM_FILE_BYTES) {
      setProblem(
        `${file.name} is ${(file.size / 1048576).toFixed(1)} MB: at most ${MAX_FORM_FILE_BYTES / 1048576} MB.`,
      );
      return;
    }
    setProblem(null);
    onChange(await readFile(file), fieldPathId.path);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    if (!disabled && !readonly) void take(event.dataTransfer.files[0]);
  };
  const errors = [...(problem ? [problem] : []), ...(rawErrors ?? [])];
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
        disabled={disabled || readonly}
        aria-invalid={errors.length > 0}
        aria-describedby={`${id}__help`}
        onChange={(e) => void take(e.target.files?.[0])}
      />
      <p id={`${id}__help`} className={styles.help}>
        {formData?.filename
          ? `${formData.filename} (${formData.contentLength} bytes)`
          : 'Choose a file or drop it here.'}
      </p>
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
