import { ConfirmModal } from '../../components/ConfirmModal';
import { ErrorAlert } from '../../components/ErrorAlert';

/** The mutation a form submits or a dialog confirms: what it shows while it runs and when it fails. */
export interface Submission<V> {
  isPending: boolean;
  error: Error | null;
  mutate(variables: V, options?: { onSuccess?: () => void }): void;
}

/**
 * A dialog that confirms one team action (revoke an invitation or a client, remove a member,
 * transfer ownership) on `target`: busy while the mutation runs, and its failure shown inside,
 * so the dialog stays open on an error.
 */
export function MutationConfirm<V>(props: {
  title: string;
  confirmLabel: string;
  /** the question, naming what the action is done to */
  body: string;
  /** what the mutation is called with (the id or the member the action is done to) */
  target: V;
  submission: Submission<V>;
  onClose: () => void;
}) {
  const { submission } = props;
  return (
    <ConfirmModal
      opened
      title={props.title}
      confirmLabel={props.confirmLabel}
      busy={submission.isPending}
      onConfirm={() => submission.mutate(props.target)}
      onClose={props.onClose}
    >
      {props.body}
      {submission.error && <ErrorAlert error={submission.error} />}
    </ConfirmModal>
  );
}
