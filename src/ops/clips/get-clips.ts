import { Effect, Option, Schema } from "effect"
import { ClipsId, ClipsObject } from "../../../domain/clips.ts"
import { NotFound } from "../../../domain/errors.ts"
import { ClipsStore } from "../../../domain/ports/clips-store.ts"
import { CurrentWorkspace } from "../../kernel/current-workspace.ts"
import { operation } from "../../kernel/operation.ts"
import { presentClips } from "../../kernel/present-clips.ts"

export const getClips = operation({
  name: "getClips",
  summary: "Get a clips record",
  description:
    "Status of a clips request: its step, and the clips chosen, best first, each with its place in the source, its score and why, " +
    "and its caption video (follow GET /v1/videos/{id} for the video's own progress and mp4). Another workspace's record is a 404.",
  path: Schema.Struct({ id: ClipsId }),
  payload: Schema.Struct({}),
  output: ClipsObject,
  errors: ["NotFound"],
  http: { method: "GET", path: "/v1/clips/:id" },
  access: "workspace",
  tool: "get_clips",
  cli: "get-clips",
  idempotent: false,
  handle: ({ id }) =>
    Effect.gen(function*() {
      const workspace = yield* CurrentWorkspace
      const found = yield* (yield* ClipsStore).get(workspace.id, id)
      if (Option.isNone(found)) return yield* new NotFound({ resource: "clips record", id })
      return yield* presentClips(found.value)
    })
})
