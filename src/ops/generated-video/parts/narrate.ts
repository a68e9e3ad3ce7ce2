// Speaking a generated video's script: the narration is charged per minute (per started second), stored as MP3,
// its word times saved for the captions, and the video's length recorded (narration plus a short tail).
import { Effect, Option } from "effect"
import { WorkFailed } from "../../../../domain/errors.ts"
import type { GeneratedProject } from "../../../../domain/generated-project.ts"
import { MediaEngine } from "../../../../domain/ports/media-engine.ts"
import { VideoStore } from "../../../../domain/ports/video-store.ts"
import { WorkspaceStore } from "../../../../domain/ports/workspace-store.ts"
import { speechCredits } from "../../../../domain/pricing.ts"
import { MIN_SPOKEN_SECONDS } from "../../../../domain/spoken-words.ts"
import { NARRATION_TAIL_SECONDS } from "../../../../domain/timeline.ts"
import type { VideoRecord } from "../../../../domain/video.ts"
import { videoWork } from "../../../kernel/video-work.ts"
import { markGenerated } from "../../videos/parts/mark-words.ts"
import { chargeWork } from "../../../shared/credits/charge-work.ts"
import { storeFile } from "../../../shared/media/store-file.ts"
import { speakText } from "./speak-text.ts"

export const workspaceOf = (video: VideoRecord) =>
  Effect.flatMap(WorkspaceStore, (store) => store.get(video.workspaceId)).pipe(Effect.map(Option.getOrThrow))

/** Speaks the script, charges it, and stores the narration and its word times. */
export const narrate = (video: VideoRecord, project: GeneratedProject, dir: string) =>
  Effect.gen(function*() {
    const wav = `${dir}/narration.wav`
    const spoken = yield* speakText(video, { text: project.script, voiceId: project.voiceId }, wav)
    if (spoken.durationSeconds < MIN_SPOKEN_SECONDS) {
      return yield* new WorkFailed({
        message: `The voice ${project.voiceId} could say none of the script: it reads another language. ` +
          "Create the video again with a voice for the script's language (GET /v1/voices lists them)."
      })
    }
    yield* chargeWork(video, "speech", speechCredits(spoken.durationSeconds), "The narration was not charged; top up credits and create the video again.")
    yield* (yield* MediaEngine).encodeMp3(wav, `${dir}/narration.mp3`)
    const file = yield* storeFile(yield* workspaceOf(video), { path: `${dir}/narration.mp3`, name: "narration.mp3", contentType: "audio/mpeg" })
    const videos = yield* VideoStore
    yield* videos.saveWords(video.id, yield* markGenerated(video, spoken.words, wav))
    const narrated = { ...project, narrationFileId: file.id }
    yield* videos.saveProject(video.id, narrated)
    yield* videoWork.apply(video.id, (at) => ({
      _tag: "SourceProbed",
      facts: { durationSeconds: spoken.durationSeconds + NARRATION_TAIL_SECONDS, width: video.width ?? 0, height: video.height ?? 0 },
      at
    }))
    return narrated
  })
