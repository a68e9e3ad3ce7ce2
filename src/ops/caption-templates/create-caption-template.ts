import { Effect, Option, Schema } from "effect"
import { DEFAULT_TEMPLATE_ID } from "../../../domain/captions.ts"
import { InvalidInput } from "../../../domain/errors.ts"
import { TemplateStore } from "../../../domain/ports/template-store.ts"
import { CurrentWorkspace } from "../../kernel/current-workspace.ts"
import { nowIso } from "../../kernel/now.ts"
import { operation } from "../../kernel/operation.ts"
import { ServiceConfig } from "../../kernel/service-config.ts"
import { CaptionTemplateObject, present, StyleChanges, TemplateName } from "./parts/caption-template-object.ts"
import { findTemplate } from "./parts/resolve-template.ts"

export const createCaptionTemplate = operation({
  name: "createCaptionTemplate",
  summary: "Save a caption template",
  description:
    "Saves a caption style for the workspace (it gets a positive id). The style starts from `basedOn` (a template id, default -1) and takes the fields given in `style`.",
  path: Schema.Struct({}),
  payload: Schema.Struct({
    name: TemplateName,
    basedOn: Schema.optional(Schema.Int.annotations({ description: "Template whose style is the starting point (default -1)." })),
    style: Schema.optionalWith(StyleChanges, { default: () => ({}) })
  }),
  output: CaptionTemplateObject,
  errors: ["InvalidInput"],
  http: { method: "POST", path: "/v1/caption-templates" },
  access: "workspace",
  tool: null,
  cli: null,
  idempotent: true,
  handle: ({ name, basedOn, style }) =>
    Effect.gen(function*() {
      const workspace = yield* CurrentWorkspace
      const base = yield* findTemplate(workspace.id, basedOn ?? DEFAULT_TEMPLATE_ID).pipe(
        Effect.flatMap(Option.match({
          onNone: () => new InvalidInput({ field: "basedOn", message: `No caption template ${basedOn}.` }),
          onSome: Effect.succeed
        }))
      )
      const store = yield* TemplateStore
      const template = {
        id: yield* store.nextId(),
        workspaceId: workspace.id,
        name,
        builtIn: false,
        style: { ...base.style, ...style },
        createdAt: yield* nowIso
      }
      yield* store.insert(template)
      return present((yield* ServiceConfig).baseUrl)(template)
    })
})
