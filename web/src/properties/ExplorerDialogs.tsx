/** The explorer's dialogs (create, move, delete), wired to the property commands. */
import { useQueryClient } from '@tanstack/react-query';
import { useApi } from '../api';
import { createProperty, deleteProperty, moveProperty } from './api/property-api';
import { ancestorsOf } from './api/property-paths';
import { childrenQueryKey, propertyQueryKey } from './api/query-keys';
import { ConfirmDeleteDialog } from './dialogs/ConfirmDeleteDialog';
import { KeyDialog } from './dialogs/KeyDialog';
import type { ExplorerDialog } from './useExplorerState';

interface ExplorerDialogsProps {
  dialog: ExplorerDialog;
  onClose(): void;
  onCreated(key: string): void;
  onDeleted(key: string): void;
}

export function ExplorerDialogs({ dialog, onClose, onCreated, onDeleted }: ExplorerDialogsProps) {
  const api = useApi();
  const queryClient = useQueryClient();
  // Events refresh the tree too; refreshing here makes one's own change show at once.
  const refreshAround = (key: string) => {
    for (const folder of ancestorsOf(key))
      void queryClient.invalidateQueries({ queryKey: childrenQueryKey(folder ?? '') });
    void queryClient.invalidateQueries({ queryKey: propertyQueryKey(key) });
  };

  if (dialog === null) return null;
  if (dialog.kind === 'create') {
    return (
      <KeyDialog
        title="New property"
        submitLabel="Create"
        initialKey={dialog.folder ? `${dialog.folder}/` : 'global/'}
        withContent
        onClose={onClose}
        onSubmit={async ({ key, type, value }) => {
          const created = await createProperty(api, key, type, value);
          refreshAround(created.key);
          onCreated(created.key);
        }}
      />
    );
  }
  if (dialog.kind === 'move') {
    return (
      <KeyDialog
        title={`Move ${dialog.key}`}
        submitLabel="Move"
        initialKey={dialog.key}
        onClose={onClose}
        onSubmit={async ({ key }) => {
          const moved = await moveProperty(api, dialog.key, key);
          refreshAround(dialog.key);
          refreshAround(moved.key);
          onCreated(moved.key);
        }}
      />
    );
  }
  return (
    <ConfirmDeleteDialog
      propertyKey={dialog.key}
      onClose={onClose}
      onConfirm={async () => {
        await deleteProperty(api, dialog.key);
        refreshAround(dialog.key);
        onDeleted(dialog.key);
      }}
    />
  );
}
