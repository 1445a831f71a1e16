/** The history feature: a pipeline's or property's kept versions, diffed and restored. */
export { HistoryDialog, type HistoryDialogProps } from './HistoryDialog';
