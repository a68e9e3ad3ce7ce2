// Conversions between record fields and what node-pg sends and returns for our column types.

/**
 * A json/jsonb parameter. Passed as text: node-pg would turn a JS array into a Postgres array literal,
 * and the column's type makes Postgres parse the text as JSON.
 */
export const jsonText = (value: unknown): string => JSON.stringify(value ?? null)

/** A nullable json/jsonb parameter: null is SQL NULL, not the JSON value null. */
export const jsonTextOrNull = (value: unknown): string | null => value === null ? null : jsonText(value)

/** timestamptz arrives as a Date; records carry ISO 8601 UTC strings with milliseconds. */
export const isoText = (value: Date): string => value.toISOString()

export const isoTextOrNull = (value: Date | null): string | null => value === null ? null : isoText(value)

/** bigint and numeric arrive as strings (to lose no precision); ours are within a double's exact range. */
export const fromBigint = (value: string): number => Number(value)

export const fromBigintOrNull = (value: string | null): number | null => value === null ? null : Number(value)
