/**
 * A preview of one attachment, fetched with the session's credentials: an image, a PDF (the browser's
 * viewer), or the start of a text. Nothing of the content runs: text is shown as text, an image as an image,
 * and a PDF's blob is typed application/pdf whatever the server said.
 */
import { useEffect, useState } from 'react';
import { useApi } from '../../api';
import type { Attachment } from '../api/property-types';
import { downloadAttachment } from '../api/property-api';
import styles from '../properties.module.css';

/** Bigger attachments are offered for download only. */
const MAX_PREVIEW_BYTES = 5 * 1024 * 1024;
const MAX_TEXT_CHARS = 64 * 1024;

type PreviewKind = 'image' | 'pdf' | 'text';

export function previewKind(contentType: string): PreviewKind | null {
  const type = contentType.toLowerCase().split(';')[0]!.trim();
  if (/^image\/(png|jpeg|gif|webp|svg\+xml|bmp|avif)$/.test(type)) return 'image';
  if (type === 'application/pdf') return 'pdf';
  if (type.startsWith('text/') || /^application\/(json|xml|x-yaml|yaml)$|\+(json|xml)$/.test(type))
    return 'text';
  return null;
}

type Loaded = { url: string } | { text: string } | { error: string };

export function AttachmentPreview({
  propertyKey,
  attachment,
}: {
  propertyKey: string;
  attachment: Attachment;
}) {
  const api = useApi();
  const kind = previewKind(attachment.contentType);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const tooBig = attachment.length > MAX_PREVIEW_BYTES;

  useEffect(() => {
    if (!kind || tooBig) return undefined;
    let url: string | null = null;
    let live = true;
    downloadAttachment(api, propertyKey, attachment.name).then(
      async (blob) => {
        if (!live) return;
        if (kind === 'text') {
          const text = await blob.text();
          if (live)
            setLoaded({ text: text.length > MAX_TEXT_CHARS ? `${text.slice(0, MAX_TEXT_CHARS)}\n…` : text });
          return;
        }
        const typed = new Blob([blob], { type: kind === 'pdf' ? 'application/pdf' : blob.type });
        url = URL.createObjectURL(typed);
        setLoaded({ url });
      },
      (error: unknown) => live && setLoaded({ error: String(error) }),
    );
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [api, propertyKey, attachment.name, kind, tooBig]);

  if (!kind) return <p className={styles.muted}>No preview for {attachment.contentType}.</p>;
  if (tooBig) return <p className={styles.muted}>Too large to preview; download it instead.</p>;
  if (!loaded) return <p className={styles.muted}>Loading the preview…</p>;
  if ('error' in loaded) return <p className={styles.error}>{loaded.error}</p>;
  if ('text' in loaded)
    return (
      <pre className={styles.previewText} data-testid="attachment-preview">
        {loaded.text}
      </pre>
    );
  if (kind === 'image')
    return (
      <img
        className={styles.previewImage}
        src={loaded.url}
        alt={attachment.name}
        data-testid="attachment-preview"
      />
    );
  return (
    <iframe
      className={styles.previewPdf}
      src={loaded.url}
      title={attachment.name}
      data-testid="attachment-preview"
    />
  );
}
