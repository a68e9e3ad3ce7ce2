import { Effect, Option } from "effect"
import { NotFound } from "../../../../domain/errors.ts"
import { VideoStore } from "../../../../domain/ports/video-store.ts"
import { CurrentWorkspace } from "../../../kernel/current-workspace.ts"

/** A video of the current workspace; another workspace's video is a 404 like a missing one. */
export const findVideo = (id: string) =>
  Effect.gen(function*() {
    const workspace = yield* CurrentWorkspace
    const found = yield* (yield* VideoStore).get(workspace.id, id)
    return yield* Option.match(found, {
      onNone: () => new NotFound({ resource: "video", id }),
      onSome: Effect.succeed
    })
  })
