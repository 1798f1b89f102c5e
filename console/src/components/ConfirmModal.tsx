import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent, type ReactNode } from 'react';
import { confirmModalMessages as messages } from '../messages/confirmModal';

/**
 * A confirmation dialog. With `typed`, the action stays disabled until that exact text is typed
 * (for destructive actions); Enter confirms, Escape cancels, focus starts in the dialog.
 */
export function ConfirmModal(props: {
  opened: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  typed?: string;
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const [text, setText] = useState('');
  const ready = !props.typed || text === props.typed;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (ready) props.onConfirm();
  };
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={props.title}>
      <form onSubmit={submit}>
        <Stack>
          <div>{props.children}</div>
          {props.typed && (
            <TextInput
              label={
                <Text span size="sm">
                  {messages.typeBefore}
                  <strong>{props.typed}</strong>
                  {messages.typeAfter}
                </Text>
              }
              value={text}
              onChange={(event) => setText(event.currentTarget.value)}
              data-autofocus
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              {messages.cancel}
            </Button>
            <Button
              type="submit"
              color="red"
              disabled={!ready}
              loading={props.busy}
              data-autofocus={!props.typed || undefined}
            >
              {props.confirmLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
