import { Effect, Schema } from "effect"
import { BUILT_IN_TEMPLATES } from "../../../domain/captions.ts"
import { TemplateStore } from "../../../domain/ports/template-store.ts"
import { CurrentWorkspace } from "../../kernel/current-workspace.ts"
import { operation } from "../../kernel/operation.ts"
import { ServiceConfig } from "../../kernel/service-config.ts"
import { ListEnvelope } from "../../shared/list-envelope.ts"
import { CaptionTemplateObject, present } from "./parts/caption-template-object.ts"

export const listCaptionTemplates = operation({
  name: "listCaptionTemplates",
  summary: "List caption templates",
  description: "Caption styles a video can burn in: the built-in ones (negative ids) and the workspace's saved ones (positive ids).",
  path: Schema.Struct({}),
  payload: Schema.Struct({}),
  output: ListEnvelope(CaptionTemplateObject, "CaptionTemplateList"),
  errors: [],
  http: { method: "GET", path: "/v1/caption-templates" },
  access: "workspace",
  tool: "list_caption_templates",
  cli: "templates",
  idempotent: false,
  handle: () =>
    Effect.gen(function*() {
      const workspace = yield* CurrentWorkspace
      const saved = yield* (yield* TemplateStore).list(workspace.id)
      return { data: [...BUILT_IN_TEMPLATES, ...saved].map(present((yield* ServiceConfig).baseUrl)), nextCursor: null }
    })
})
