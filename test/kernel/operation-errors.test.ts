// An operation must declare every domain error its handler can fail with: the surfaces answer only
// declared errors (HTTP would send another as an empty 500). A handler failing with an undeclared
// error does not compile; every declared error has an HTTP status.
import { Effect, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { STATUS_OF } from "../../adapters/http/api-error.ts"
import { NotFound } from "../../domain/errors.ts"
import { catalogue } from "../../src/catalogue.ts"
import { type AnyOperation, operation } from "../../src/kernel/operation.ts"

/** An operation's fields but for its errors and handler. */
const shape = {
  name: "probe",
  summary: "A probe",
  description: "Fails with NotFound.",
  path: Schema.Struct({ id: Schema.String }),
  payload: Schema.Struct({}),
  output: Schema.String,
  http: { method: "GET", path: "/probe/:id" },
  access: "workspace",
  tool: null,
  cli: null,
  idempotent: false
} as const

describe("declared errors", () => {
  it("do not compile when they leave out an error the handler can fail with", () => {
    const declared = operation({ ...shape, errors: ["NotFound"], handle: ({ id }) => Effect.fail(new NotFound({ resource: "video", id })) })
    const undeclared = operation({ ...shape, errors: [], handle: ({ id }) => Effect.fail(new NotFound({ resource: "video", id })) })
    const fine: AnyOperation = declared
    // @ts-expect-error the handler fails with NotFound, which `errors` leaves out
    const refused: AnyOperation = undeclared
    expect([fine, refused]).toHaveLength(2)
  })

  it("each have an HTTP status, for every operation of the catalogue", () => {
    for (const op of catalogue) {
      for (const tag of op.errors) expect(STATUS_OF[tag], `${op.name}: ${tag}`).toBeGreaterThanOrEqual(400)
    }
  })
})
