/** The public newsletter pages' text (spec "Newsletter", docs/decisions.md "Newsletter links act on POST only"). */
export const newsletterMessages = {
  productName: 'idp-backup',
  subscribe: {
    title: 'The idp-backup newsletter',
    intro:
      'News about idp-backup, a few times a year. We send a confirmation mail first: nothing arrives until you confirm.',
    email: 'E-mail address',
    button: 'Subscribe',
    sent: 'Check your inbox',
    sentText:
      'If this address is not subscribed yet, a confirmation mail is on its way. Its link works for 48 hours.',
  },
  confirm: {
    title: 'Confirm your subscription',
    text: 'Receive the idp-backup newsletter at this address?',
    button: 'Confirm my subscription',
    done: 'Subscription confirmed',
    doneText: 'Thank you: the newsletter will reach you at this address.',
  },
  unsubscribe: {
    title: 'Unsubscribe',
    text: 'Stop receiving the idp-backup newsletter at this address?',
    button: 'Unsubscribe',
    done: 'Unsubscribed',
    doneText: 'You will receive no more newsletters at this address.',
  },
  noToken: 'This page needs the link from your mail: open the link in the mail again.',
  failed: 'The request did not go through. Try again in a moment.',
} as const;
