import { Effect, Option, Schema } from "effect"
import { NotFound } from "../../../domain/errors.ts"
import { TemplateStore } from "../../../domain/ports/template-store.ts"
import { CurrentWorkspace } from "../../kernel/current-workspace.ts"
import { operation } from "../../kernel/operation.ts"
import { ServiceConfig } from "../../kernel/service-config.ts"
import { CaptionTemplateObject, present, SavedTemplateId, StyleChanges, TemplateName } from "./parts/caption-template-object.ts"


export const updateCaptionTemplate = operation({
  name: "updateCaptionTemplate",
  summary: "Change a saved caption template",
  description: "Renames a saved template and/or changes the style fields given.",
  path: Schema.Struct({ id: SavedTemplateId }),
  payload: Schema.Struct({ name: Schema.optional(TemplateName), style: Schema.optional(StyleChanges) }),
  output: CaptionTemplateObject,
  errors: ["NotFound"],
  http: { method: "PATCH", path: "/v1/caption-templates/:id" },
  access: "workspace",
  tool: null,
  cli: null,
  idempotent: false,
  handle: ({ id, name, style }) =>
    Effect.gen(function*() {
      const workspace = yield* CurrentWorkspace
      const store = yield* TemplateStore
      const current = yield* store.get(workspace.id, id).pipe(
        Effect.flatMap(Option.match({
          onNone: () => new NotFound({ resource: "caption template", id: String(id) }),
          onSome: Effect.succeed
        }))
      )
      const next = { ...current, name: name ?? current.name, style: { ...current.style, ...style } }
      yield* store.update(next)
      return present((yield* ServiceConfig).baseUrl)(next)
    })
})
