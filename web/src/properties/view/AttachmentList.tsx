/** The property's attachments, each downloadable with the session's credentials. */
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../api';
import { errorText } from '../api/error-text';
import { downloadAttachment, listAttachments } from '../api/property-api';
import { attachmentsQueryKey } from '../api/query-keys';
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

export function AttachmentList({ propertyKey }: { propertyKey: string }) {
  const api = useApi();
  const attachments = useQuery({
    queryKey: attachmentsQueryKey(propertyKey),
    queryFn: ({ signal }) => listAttachments(api, propertyKey, signal),
  });
  if (attachments.error) return <p className={styles.error}>{errorText(attachments.error)}</p>;
  const list = attachments.data ?? [];
  return (
    <section aria-label="Attachments" className={styles.section}>
      <h3>Attachments</h3>
      {list.length === 0 ? (
        <p className={styles.muted}>{attachments.isPending ? 'Loading…' : 'None.'}</p>
      ) : (
        <ul className={styles.attachments}>
          {list.map((a) => (
            <li key={a.uuid}>
              <button
                type="button"
                className={styles.link}
                onClick={() => void downloadAttachment(api, propertyKey, a.name).then((b) => save(b, a.name))}
              >
                {a.name}
              </button>
              <span className={styles.muted}>
                {a.contentType} · {size(a.length)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
