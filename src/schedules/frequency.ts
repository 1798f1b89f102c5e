/** Spec "Schedule (per connection)": `frequency`. */
export const FREQUENCIES = ['hourly', 'daily', 'weekly', 'monthly'] as const;
export type Frequency = (typeof FREQUENCIES)[number];
