import { Button, Group, NativeSelect, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../api/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import type { Role } from '../../logic/team-roles';
import { teamMessages } from '../../messages/team';
import type { Submission } from './MutationConfirm';

/** What the form submits: the text field's value and the chosen role. */
export interface RoleGrant<R extends Role> {
  value: string;
  role: R;
}

/**
 * A team section's create form: one text field and a role (`viewer` until another is chosen, the
 * least a new grant should give), on one row from the `sm` breakpoint (stacked on a phone), then
 * the submit button. It holds what is typed and chosen, submits it to `submit.submission`, and
 * empties the text field once that succeeds. The API's field errors (`ApiError.fieldErrors`,
 * keyed by the body's field names: `field.name` and `role`) show under their inputs; any other
 * failure as an alert below the form. Used by the clients (`POST /api/team/clients`) and the
 * invitations (`POST /api/team/invitations`) sections.
 */
export function RoleGrantForm<R extends Role>(props: {
  /** the text field: its body field name and label; `type`, `required`, `maxLength` as on an input */
  field: { name: string; label: string; type?: 'email' | 'text'; required?: boolean; maxLength?: number };
  /** the roles offered, the select's label, and its width in px from `sm` up */
  roles: { options: readonly R[]; label: string; width: number };
  submit: { label: string; submission: Submission<RoleGrant<R>> };
}) {
  const { field, roles, submit } = props;
  const { submission } = submit;
  const [value, setValue] = useState('');
  const [role, setRole] = useState<R>('viewer' as R);
  const send = (event: FormEvent) => {
    event.preventDefault();
    submission.mutate({ value, role }, { onSuccess: () => setValue('') });
  };
  const fieldErrors = submission.error instanceof ApiError ? submission.error.fieldErrors() : {};
  return (
    <>
      <form onSubmit={send}>
        <Group align="flex-start">
          <TextInput
            label={field.label}
            type={field.type}
            required={field.required}
            maxLength={field.maxLength}
            w={{ base: '100%', sm: 320 }}
            value={value}
            onChange={(event) => setValue(event.currentTarget.value)}
            error={fieldErrors[field.name]}
          />
          <NativeSelect
            label={roles.label}
            w={{ base: '100%', sm: roles.width }}
            value={role}
            data={roles.options.map((option) => ({ value: option, label: teamMessages.roles[option] }))}
            onChange={(event) => setRole(event.currentTarget.value as R)}
            error={fieldErrors.role}
          />
          <Button type="submit" mt={{ base: 0, sm: 25 }} loading={submission.isPending}>
            {submit.label}
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
