import { Effect, Schema } from "effect"
import { NotFound } from "../../../domain/errors.ts"
import { TemplateStore } from "../../../domain/ports/template-store.ts"
import { CurrentWorkspace } from "../../kernel/current-workspace.ts"
import { operation } from "../../kernel/operation.ts"
import { SavedTemplateId } from "./parts/caption-template-object.ts"

export const deleteCaptionTemplate = operation({
  name: "deleteCaptionTemplate",
  summary: "Delete a saved caption template",
  description: "Videos that used it keep rendering with the default template (-1).",
  path: Schema.Struct({ id: SavedTemplateId }),
  payload: Schema.Struct({}),
  output: Schema.Struct({
    id: Schema.Int.annotations({ description: "The deleted template's id." }),
    deleted: Schema.Literal(true).annotations({ description: "Always true." })
  }),
  errors: ["NotFound"],
  http: { method: "DELETE", path: "/v1/caption-templates/:id" },
  access: "workspace",
  tool: null,
  cli: null,
  idempotent: false,
  handle: ({ id }) =>
    Effect.gen(function*() {
      const workspace = yield* CurrentWorkspace
      const removed = yield* (yield* TemplateStore).remove(workspace.id, id)
      if (!removed) return yield* new NotFound({ resource: "caption template", id: String(id) })
      return { id, deleted: true as const }
    })
})
