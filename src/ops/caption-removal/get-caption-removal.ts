import { Effect, Option, Schema } from "effect"
import { CaptionRemovalObject, RemovalId } from "../../../domain/caption-removal.ts"
import { NotFound } from "../../../domain/errors.ts"
import { CaptionRemovalStore } from "../../../domain/ports/caption-removal-store.ts"
import { CurrentWorkspace } from "../../kernel/current-workspace.ts"
import { operation } from "../../kernel/operation.ts"
import { presentCaptionRemoval } from "../../kernel/present-caption-removal.ts"

export const getCaptionRemoval = operation({
  name: "getCaptionRemoval",
  summary: "Get a caption removal",
  description:
    "Status of a caption removal: its step, the regions of text found, the cleaned mp4's URL once it exists, the credits charged " +
    "and whether a failure was refunded. Another workspace's removal is a 404.",
  path: Schema.Struct({ id: RemovalId }),
  payload: Schema.Struct({}),
  output: CaptionRemovalObject,
  errors: ["NotFound"],
  http: { method: "GET", path: "/v1/caption-remover/:id" },
  access: "workspace",
  tool: "get_caption_removal",
  cli: "get-removal",
  idempotent: false,
  handle: ({ id }) =>
    Effect.gen(function*() {
      const workspace = yield* CurrentWorkspace
      const found = yield* (yield* CaptionRemovalStore).get(workspace.id, id)
      if (Option.isNone(found)) return yield* new NotFound({ resource: "caption removal", id })
      return yield* presentCaptionRemoval(found.value)
    })
})
