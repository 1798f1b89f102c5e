import type { MailMessage } from '@app/platform/mail/mail.service.js';
import { html } from '@app/identity/sign-in/html.js';
import type { NotificationSeverity } from './notification-types.js';

/** The product's name as e-mail shows it. */
export const PRODUCT_NAME = 'idp-backup';

/** Console path of the notification preferences, the target of List-Unsubscribe. */
export const PREFERENCES_PATH = '/settings/notifications';

/** What an e-mail tells of a notification. */
export interface EmailedNotification {
  severity: NotificationSeverity;
  title: string;
  message: string;
  /** console path of the object (PlannedNotification.link) */
  link: string;
}

/**
 * The e-mail of a notification (docs/notifications.md): the product's name in the subject, a plain
 * text and an HTML part with the same content, a link to the object in the console
 * (CONSOLE_URL), and `List-Unsubscribe` (RFC 2369) pointing at the preferences, since every
 * notification e-mail can be turned off there. It holds only the notification's own text, which
 * is made from audit details that never carry a secret.
 * @param consoleUrl origin of the console, no trailing slash
 */
export function composeNotificationEmail(
  to: string,
  notification: EmailedNotification,
  consoleUrl: string,
): MailMessage {
  const url = `${consoleUrl}${notification.link}`;
  const preferences = `${consoleUrl}${PREFERENCES_PATH}`;
  const severity = notification.severity.toUpperCase();
  return {
    to,
    subject: `[${PRODUCT_NAME}] ${notification.title}`,
    text: [
      `${notification.title} (${severity})`,
      '',
      notification.message,
      '',
      `Open in ${PRODUCT_NAME}: ${url}`,
      '',
      `Choose which notifications you receive by e-mail: ${preferences}`,
    ].join('\n'),
    html: html`<!doctype html>
      <html>
        <body style="font:15px/1.5 system-ui,sans-serif;color:#1f2328">
          <p style="color:#59636e">${PRODUCT_NAME} &middot; ${severity}</p>
          <h1 style="font-size:1.2rem">${notification.title}</h1>
          <p>${notification.message}</p>
          <p><a href="${url}">Open in ${PRODUCT_NAME}</a></p>
          <p style="color:#59636e;font-size:.85rem">
            <a href="${preferences}">Choose which notifications you receive by e-mail</a>
          </p>
        </body>
      </html>`.markup,
    headers: { 'List-Unsubscribe': `<${preferences}>` },
  };
}
