import { Navigate, useSearchParams } from 'react-router';
import { compareLink } from '../../logic/notifications';

/**
 * `/diff?fromBackupId=&toBackupId=`, the address a drift notification's e-mail links to
 * (`CONSOLE_URL` + the API's link, docs/notifications.md), opened as the compare screen.
 */
export function DiffRedirect() {
  const [params] = useSearchParams();
  return <Navigate to={compareLink(params)} replace />;
}
