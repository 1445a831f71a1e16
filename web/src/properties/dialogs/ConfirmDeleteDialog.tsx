/** Asks before a property is deleted; the answer from the server (e.g. FORBIDDEN) shows in the dialog. */
import { Modal } from './Modal';

interface ConfirmDeleteDialogProps {
  propertyKey: string;
  onConfirm(): Promise<void>;
  onClose(): void;
}

export function ConfirmDeleteDialog({ propertyKey, onConfirm, onClose }: ConfirmDeleteDialogProps) {
  return (
    <Modal
      title="Delete property"
      submitLabel="Delete"
      submitStyle="danger"
      onSubmit={onConfirm}
      onClose={onClose}
    >
      <p>
        Delete <code>{propertyKey}</code> and its attachments? This cannot be undone.
      </p>
    </Modal>
  );
}
