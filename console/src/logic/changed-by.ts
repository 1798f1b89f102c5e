import type { Schemas } from '../api/client';

type Attributed = Pick<Schemas['DiffChange'], 'changedBy' | 'attribution' | 'byThisService'>;

/** What the console says of who made a change (docs/diff.md "Who changed it"). */
export interface ChangedByText {
  /** the actor as people read them: display name, then sign-in name or id when it differs */
  who: string | null;
  /** where the change came from: IP address and user agent, when the audit log gives them */
  from: string | null;
  /** why no actor is named: the log held no record, or the provider has no log read */
  missing: 'no_record' | 'not_available' | null;
  byThisService: boolean;
}

/** The change's `changedBy` for a list row. */
export function changedByText(change: Attributed): ChangedByText {
  const actor = change.changedBy;
  if (!actor)
    return {
      who: null,
      from: null,
      missing: change.attribution === 'recorded' ? 'no_record' : change.attribution,
      byThisService: false,
    };
  const handle = actor.alternateId ?? actor.id;
  const who = handle === actor.displayName ? actor.displayName : `${actor.displayName} (${handle})`;
  const from = [actor.ipAddress, actor.userAgent].filter((part): part is string => Boolean(part)).join(' · ');
  return {
    who,
    from: from === '' ? null : from,
    missing: null,
    byThisService: change.byThisService === true,
  };
}
