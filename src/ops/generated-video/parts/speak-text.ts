// One text of a video spoken in the voice its project chose, in the worker. A failure fails the
// video with a message that says which voice failed on what, and what the person can do.
import { Effect } from "effect"
import { WorkFailed } from "../../../../domain/errors.ts"
import type { VideoRecord } from "../../../../domain/video.ts"
import { chooseVoice } from "../../speech/parts/voices.ts"
import { withSpan } from "../../../kernel/spans.ts"

const EXCERPT_CHARACTERS = 40

const excerpt = (text: string): string =>
  JSON.stringify(text.length > EXCERPT_CHARACTERS ? `${text.slice(0, EXCERPT_CHARACTERS)}…` : text)

export const speakText = (video: VideoRecord, part: { readonly text: string; readonly voiceId: string }, outputWav: string) =>
  Effect.gen(function*() {
    const { engine, voice } = yield* chooseVoice(part.voiceId).pipe(
      Effect.mapError((e) => new WorkFailed({ message: `The voice ${part.voiceId} is no longer offered by this server: ${e.message}` }))
    )
    return yield* engine.speak({ text: part.text, voiceId: voice.id, outputWav, workspaceId: video.workspaceId }).pipe(
      Effect.tapError((e) =>
        Effect.logWarning("speech engine failed", e.message).pipe(
          Effect.annotateLogs({ videoId: video.id, workspaceId: video.workspaceId, voiceId: voice.id, engine: engine.engine })
        )
      ),
      Effect.mapError((e) =>
        new WorkFailed({
          message: `The voice ${voice.id} could not speak ${excerpt(part.text)} (${e.message}). ` +
            "Create the video again, or choose another voice."
        })
      )
    )
  }).pipe(withSpan("speakText", { attributes: { videoId: video.id, voiceId: part.voiceId } }))
