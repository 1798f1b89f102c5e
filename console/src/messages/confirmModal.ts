/** The confirmation dialog's own text (its title and action come from the screen). */
export const confirmModalMessages = {
  typeBefore: 'Type ',
  typeAfter: ' to confirm',
  cancel: 'Cancel',
} as const;
