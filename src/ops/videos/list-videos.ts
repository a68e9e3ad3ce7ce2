import { Effect, Schema } from "effect"
import { VideoStore } from "../../../domain/ports/video-store.ts"
import { Status, Video } from "../../../domain/video.ts"
import { CurrentWorkspace } from "../../kernel/current-workspace.ts"
import { operation } from "../../kernel/operation.ts"
import { ListEnvelope, PageParams } from "../../shared/list-envelope.ts"
import { presentVideos } from "../../kernel/present-video.ts"

export const listVideos = operation({
  name: "listVideos",
  summary: "List videos",
  description: "The workspace's videos, newest first, optionally only those with a given status.",
  path: Schema.Struct({}),
  payload: Schema.Struct({
    status: Schema.optional(Status).annotations({ description: "Only videos with this status." }),
    ...PageParams
  }),
  output: ListEnvelope(Video, "VideoList"),
  errors: [],
  http: { method: "GET", path: "/v1/videos" },
  access: "workspace",
  tool: "list_videos",
  cli: "list",
  idempotent: false,
  handle: ({ status, limit, cursor }) =>
    Effect.gen(function*() {
      const workspace = yield* CurrentWorkspace
      const page = yield* (yield* VideoStore).list({ workspaceId: workspace.id, status, limit, cursor })
      return { data: yield* presentVideos(page.items), nextCursor: page.nextCursor }
    })
})
