// `face` or `split` asked of a caption video made without looking at its faces: its next render looks
// for them. The render request charges that looking with the render (one 402 for both), the job looks.
import { Effect, Option } from "effect"
import { VideoStore } from "../../../../domain/ports/video-store.ts"
import { awaitsFaces, type Framing, type ReframeSettings } from "../../../../domain/reframe.ts"
import type { VideoRecord } from "../../../../domain/video.ts"

export interface FacesAsked {
  readonly asked: ReframeSettings
  /** The window standing in the middle meanwhile: it keeps the source's size. */
  readonly framing: Framing
}

/** What the video's next render looks for faces for; null where it looks for none. */
export const facesAsked = (video: VideoRecord) =>
  Effect.gen(function*() {
    if (video.kind !== "caption") return null
    const edits = Option.getOrNull(yield* (yield* VideoStore).getCaptionEdits(video.id))
    if (edits === null || edits.framing === null || !awaitsFaces(edits.reframe, edits.framing)) return null
    return { asked: edits.reframe, framing: edits.framing } satisfies FacesAsked
  })
