import { Tooltip } from '@mantine/core';
import { formatInstant } from '../logic/format';

/**
 * An ISO 8601 instant as the reader reads time: in their locale and time zone, with the UTC
 * instant on hover or keyboard focus (a `<time>` element, so assistive technology and copy keep
 * the machine value). Renders "—" for none. Inside a link or button pass `focusable={false}`:
 * the control takes the focus, and an element focusable inside another is an axe
 * `nested-interactive` violation.
 */
export function Instant({ iso, focusable = true }: { iso: string | null | undefined; focusable?: boolean }) {
  if (!iso) return <>—</>;
  const utc = new Date(iso).toISOString();
  return (
    <Tooltip label={`${utc} (UTC)`} events={{ hover: true, focus: focusable, touch: true }}>
      <time dateTime={utc} tabIndex={focusable ? 0 : undefined}>
        {formatInstant(iso)}
      </time>
    </Tooltip>
  );
}
