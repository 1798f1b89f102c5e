import type { Schemas } from '../api/client';

/** The restore screen's mapping form: each field as typed, blank when unused. */
export interface MappingForm {
  domainFrom: string;
  domainTo: string;
  hostFrom: string;
  hostTo: string;
  groupPrefix: string;
  groupSuffix: string;
}

export const EMPTY_MAPPING: MappingForm = {
  domainFrom: '',
  domainTo: '',
  hostFrom: '',
  hostTo: '',
  groupPrefix: '',
  groupSuffix: '',
};

/**
 * The API's `mapping` (docs/restore.md "Into another org") from the form: a domain or host
 * rewrite only when both sides are given (trimmed), a group name prefix/suffix as typed (their
 * spaces matter: "Sandbox - "), empty parts left out; undefined when nothing is mapped.
 */
export function crossOrgMapping(form: MappingForm): Schemas['CrossOrgMapping'] | undefined {
  const pair = (from: string, to: string) =>
    from.trim() && to.trim() ? [{ from: from.trim(), to: to.trim() }] : undefined;
  const domains = pair(form.domainFrom, form.domainTo);
  const hosts = pair(form.hostFrom, form.hostTo);
  const groupName = {
    ...(form.groupPrefix ? { prefix: form.groupPrefix } : {}),
    ...(form.groupSuffix ? { suffix: form.groupSuffix } : {}),
  };
  const mapping = {
    ...(domains ? { domains } : {}),
    ...(hosts ? { hosts } : {}),
    ...(Object.keys(groupName).length ? { groupName } : {}),
  };
  return Object.keys(mapping).length ? mapping : undefined;
}
