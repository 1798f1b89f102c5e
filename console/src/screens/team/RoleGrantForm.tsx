import { Button, Group, NativeSelect, TextInput } from '@mantine/core';
import type { FormEvent } from 'react';
import { ApiError } from '../../api/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import type { Role } from '../../logic/team-roles';
import { teamMessages } from '../../messages/team';
import type { Submission } from './MutationConfirm';

/**
 * A team section's create form: one text field and a role, on one row from the `sm` breakpoint
 * (stacked on a phone), then the submit button. The API's field errors (`ApiError.fieldErrors`,
 * keyed by the body's field names: `field.name` and `role`) show under their inputs; any other
 * failure as an alert below the form. Used by the clients (`POST /api/team/clients`) and the
 * invitations (`POST /api/team/invitations`) sections.
 */
export function RoleGrantForm<R extends Role>(props: {
  /** the text field: its body field name, label and value; `type`, `required`, `maxLength` as on an input */
  field: {
    name: string;
    label: string;
    value: string;
    onChange: (value: string) => void;
    type?: 'email' | 'text';
    required?: boolean;
    maxLength?: number;
  };
  /** the roles offered, the one chosen, and the select's width in px from `sm` up */
  roles: readonly R[];
  role: R;
  onRole: (role: R) => void;
  roleWidth: number;
  roleLabel: string;
  submitLabel: string;
  submission: Submission<void>;
}) {
  const { field, submission } = props;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    submission.mutate();
  };
  const fieldErrors = submission.error instanceof ApiError ? submission.error.fieldErrors() : {};
  return (
    <>
      <form onSubmit={submit}>
        <Group align="flex-start">
          <TextInput
            label={field.label}
            type={field.type}
            required={field.required}
            maxLength={field.maxLength}
            w={{ base: '100%', sm: 320 }}
            value={field.value}
            onChange={(event) => field.onChange(event.currentTarget.value)}
            error={fieldErrors[field.name]}
          />
          <NativeSelect
            label={props.roleLabel}
            w={{ base: '100%', sm: props.roleWidth }}
            value={props.role}
            data={props.roles.map((value) => ({ value, label: teamMessages.roles[value] }))}
            onChange={(event) => props.onRole(event.currentTarget.value as R)}
            error={fieldErrors.role}
          />
          <Button type="submit" mt={{ base: 0, sm: 25 }} loading={submission.isPending}>
            {props.submitLabel}
          </Button>
        </Group>
      </form>
      {submission.error && !Object.keys(fieldErrors).length && <ErrorAlert error={submission.error} />}
    </>
  );
}

/** The messages of a revocation: its button's label. */
interface RevokeText {
  revoke: string;
}

/** A table row's revoke button, named after what it revokes (`name`) for screen readers. */
export function RevokeButton({
  text,
  name,
  onClick,
}: {
  text: RevokeText;
  name: string;
  onClick: () => void;
}) {
  return (
    <Button size="xs" color="red" variant="light" aria-label={`${text.revoke} ${name}`} onClick={onClick}>
      {text.revoke}
    </Button>
  );
}
