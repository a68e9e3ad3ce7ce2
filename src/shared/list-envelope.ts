import { Schema } from "effect"
import { integerParameter } from "../../domain/integer-text.ts"

/** Every list answers `{ data, nextCursor }`; pass `nextCursor` back as `cursor` for the next page. */
export const ListEnvelope = <A, I>(item: Schema.Schema<A, I>, identifier: string) =>
  Schema.Struct({
    data: Schema.Array(item).annotations({ description: "This page's items." }),
    nextCursor: Schema.NullOr(Schema.String).annotations({ description: "null on the last page." })
  }).annotations({ identifier })

/**
 * Every adapter's cursor is base64url text: anything else was not made by this API, and is refused
 * rather than read as the first or an empty page.
 */
const PageCursor = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z0-9_-]{1,512}$/, { message: () => "not a cursor this API made: pass `nextCursor` back unchanged" })
).annotations({ description: "The `nextCursor` of the previous page." })

export const PageParams = {
  limit: Schema.optionalWith(integerParameter(1, 100), { default: () => 20 })
    .annotations({ description: "Items per page, 1 to 100 (default 20)." }),
  cursor: Schema.optional(PageCursor)
}
