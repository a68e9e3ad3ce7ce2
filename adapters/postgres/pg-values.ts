// Conversions between record fields and what node-pg sends and returns for our column types: helpers that
// write parameters, Schemas that decode columns (rows are decoded whole: see pg-rows.ts).
import { Schema } from "effect"
import { IntegerFromText } from "../../domain/integer-text.ts"

/**
 * A json/jsonb parameter. Passed as text: node-pg would turn a JS array into a Postgres array literal,
 * and the column's type makes Postgres parse the text as JSON.
 */
export const jsonText = (value: unknown): string => JSON.stringify(value ?? null)

/** A nullable json/jsonb parameter: null is SQL NULL, not the JSON value null. */
export const jsonTextOrNull = (value: unknown): string | null => value === null ? null : jsonText(value)

/** timestamptz arrives as a Date; records carry ISO 8601 UTC strings with milliseconds. */
export const IsoFromDate = Schema.transform(Schema.ValidDateFromSelf, Schema.String, {
  strict: true,
  decode: (date) => date.toISOString(),
  encode: (iso) => new Date(iso)
})

/**
 * bigint arrives as a string (to lose no precision); ours are within a double's exact range, which the
 * schema checks (at most 15 digits).
 */
export const NumberFromBigint = IntegerFromText
