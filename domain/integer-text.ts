import { Schema } from "effect"

/**
 * An integer sent as text (a query parameter, a path segment, a form field): decimal digits with an
 * optional minus. `Number()` alone would also take `0x10`, `1e3`, ` 12` and `""`, each a different
 * number than the client likely meant.
 */
export const IntegerFromText = Schema.compose(
  Schema.String.pipe(
    Schema.pattern(/^-?(0|[1-9][0-9]{0,14})$/, { message: () => "Expected an integer in decimal digits" })
  ),
  Schema.NumberFromString
)

/**
 * A path or query integer from `minimum` (to `maximum`): decoded from text, described to JSON Schema as
 * the integer a client sends rather than as the text it travels as.
 */
export const integerParameter = (minimum: number, maximum?: number) =>
  IntegerFromText.pipe(
    maximum === undefined ? Schema.greaterThanOrEqualTo(minimum) : Schema.between(minimum, maximum)
  ).annotations({ jsonSchema: maximum === undefined ? { type: "integer", minimum } : { type: "integer", minimum, maximum } })
