/** One Graph JSON object, as returned. */
export type GraphObject = Record<string, unknown>;
