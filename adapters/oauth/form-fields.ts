// Reads `application/x-www-form-urlencoded` bodies and query strings into one value per name.
// OAuth parameters must not repeat (RFC 6749 §3.1), so a repeated name is refused rather than guessed.
import { HttpServerRequest, type UrlParams } from "@effect/platform"
import { Data, Effect } from "effect"

export type FormFields = Readonly<Record<string, string>>

export class FormRefused extends Data.TaggedError("FormRefused")<{ readonly message: string }> {}

const toFields = (params: UrlParams.UrlParams): Effect.Effect<FormFields, FormRefused> => {
  const fields: Record<string, string> = {}
  for (const [name, value] of params) {
    if (Object.hasOwn(fields, name)) return Effect.fail(new FormRefused({ message: `The parameter ${name} is repeated.` }))
    fields[name] = value
  }
  return Effect.succeed(fields)
}

export const formBody: Effect.Effect<FormFields, FormRefused, HttpServerRequest.HttpServerRequest> = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const type = (request.headers["content-type"] ?? "").toLowerCase()
  if (!type.startsWith("application/x-www-form-urlencoded")) {
    return yield* new FormRefused({ message: "Send the parameters as application/x-www-form-urlencoded." })
  }
  const params = yield* request.urlParamsBody.pipe(
    Effect.mapError(() => new FormRefused({ message: "The form body could not be read." }))
  )
  return yield* toFields(params)
})

export const queryFields: Effect.Effect<FormFields, FormRefused, HttpServerRequest.HttpServerRequest> = Effect.flatMap(
  HttpServerRequest.HttpServerRequest,
  (request) => toFields([...new URLSearchParams(request.url.split("?")[1] ?? "")])
)
