import { Schema } from "effect"

/** Every list answers `{ data, nextCursor }`; pass `nextCursor` back as `cursor` for the next page. */
export const ListEnvelope = <A, I>(item: Schema.Schema<A, I>, identifier: string) =>
  Schema.Struct({
    data: Schema.Array(item).annotations({ description: "This page's items." }),
    nextCursor: Schema.NullOr(Schema.String).annotations({ description: "null on the last page." })
  }).annotations({ identifier })

export const PageParams = {
  limit: Schema.optionalWith(Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, 100)), { default: () => 20 })
    .annotations({ description: "Items per page, 1 to 100 (default 20)." }),
  cursor: Schema.optional(Schema.String.annotations({ description: "The `nextCursor` of the previous page." }))
}
