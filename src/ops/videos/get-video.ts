import { Effect, Schema } from "effect"
import { Video, VideoId } from "../../../domain/video.ts"
import { operation } from "../../kernel/operation.ts"
import { findVideo } from "./parts/find-video.ts"
import { presentVideo } from "../../kernel/present-video.ts"

export const getVideo = operation({
  name: "getVideo",
  summary: "Get a video",
  description:
    "Status of a video, with the mp4 URL once it exists. The record is kept indefinitely; expired media drop their links, never the record.",
  path: Schema.Struct({ id: VideoId }),
  payload: Schema.Struct({}),
  output: Video,
  errors: ["NotFound"],
  http: { method: "GET", path: "/v1/videos/:id" },
  access: "workspace",
  tool: "get_video",
  cli: "get",
  idempotent: false,
  handle: ({ id }) => findVideo(id).pipe(Effect.flatMap(presentVideo))
})
