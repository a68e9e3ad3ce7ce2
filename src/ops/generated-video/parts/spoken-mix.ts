// The narration of a chat or a quiz: many short speeches, each in its own voice, placed at their
// times with the sound effects between them, mixed into one track. Speaking is charged like any
// narration (per minute of speech); the mix is stored as the project's narration, the words (at
// their times in the video) are saved for captions, and the video's length is recorded.
import { Effect } from "effect"
import type { TimedWord } from "../../../../domain/captions.ts"
import type { GeneratedProject } from "../../../../domain/generated-project.ts"
import { MediaEngine } from "../../../../domain/ports/media-engine.ts"
import type { SpokenText } from "../../../../domain/ports/speech-engine.ts"
import { SoundEffects } from "../../../../domain/ports/sound-effects.ts"
import { VideoStore } from "../../../../domain/ports/video-store.ts"
import { speechCredits } from "../../../../domain/pricing.ts"
import { SOUND_EFFECTS, type SoundCue } from "../../../../domain/sound-effects.ts"
import type { VideoRecord } from "../../../../domain/video.ts"
import { videoWork } from "../../../kernel/video-work.ts"
import { markGenerated } from "../../videos/parts/mark-words.ts"
import { chargeWork } from "../../../shared/credits/charge-work.ts"
import { storeFile } from "../../../shared/media/store-file.ts"
import { speakText } from "./speak-text.ts"
import { workspaceOf } from "./narrate.ts"

export interface SpeechPart {
  readonly text: string
  readonly voiceId: string
}

export interface SpokenPart extends SpokenText {
  readonly wav: string
}

/** Two at a time: a local engine is a process per speech, and a hosted one a request. */
const SPEAK_CONCURRENCY = 2
/** Effects sit under the voices. */
const EFFECT_VOLUME = 0.6

/** Speaks every part in its voice, in order. */
export const speakParts = (video: VideoRecord, parts: ReadonlyArray<SpeechPart>, dir: string) =>
  Effect.forEach(parts, (part, i) =>
    Effect.gen(function*() {
      const wav = `${dir}/speech-${i}.wav`
      const spoken = yield* speakText(video, part, wav)
      return { ...spoken, wav } satisfies SpokenPart
    }), { concurrency: SPEAK_CONCURRENCY })

/** Charges the speech, mixes it with the effects, and stores the narration with the words at their times. */
export const recordSpokenMix = (
  video: VideoRecord,
  project: GeneratedProject,
  mix: {
    readonly speeches: ReadonlyArray<{ readonly part: SpokenPart; readonly atSeconds: number }>
    readonly cues: ReadonlyArray<SoundCue>
    readonly durationSeconds: number
  },
  dir: string
) =>
  Effect.gen(function*() {
    const spokenSeconds = mix.speeches.reduce((sum, s) => sum + s.part.durationSeconds, 0)
    yield* chargeWork(video, "speech", speechCredits(spokenSeconds), "The speech was not charged; top up credits and create the video again.")
    const effects = yield* SoundEffects
    const used = SOUND_EFFECTS.filter((effect) => mix.cues.some((cue) => cue.effect === effect))
    yield* Effect.forEach(used, (effect) => effects.write(effect, `${dir}/${effect}.wav`), { discard: true })
    const output = `${dir}/narration.mp3`
    yield* (yield* MediaEngine).mixAudio({
      cues: [
        ...mix.speeches.map((s) => ({ path: s.part.wav, atSeconds: s.atSeconds, volume: 1 })),
        ...mix.cues.map((cue) => ({ path: `${dir}/${cue.effect}.wav`, atSeconds: cue.atSeconds, volume: EFFECT_VOLUME }))
      ],
      durationSeconds: mix.durationSeconds,
      outputMp3: output
    })
    const file = yield* storeFile(yield* workspaceOf(video), { path: output, name: "narration.mp3", contentType: "audio/mpeg" })
    const words: ReadonlyArray<TimedWord> = mix.speeches.flatMap((s) =>
      s.part.words.map((w) => ({ text: w.text, start: w.start + s.atSeconds, end: w.end + s.atSeconds }))
    )
    const videos = yield* VideoStore
    yield* videos.saveWords(video.id, yield* markGenerated(video, words))
    const narrated = { ...project, narrationFileId: file.id }
    yield* videos.saveProject(video.id, narrated)
    yield* videoWork.apply(video.id, (at) => ({
      _tag: "SourceProbed",
      facts: { durationSeconds: mix.durationSeconds, width: video.width ?? 0, height: video.height ?? 0 },
      at
    }))
    return narrated
  })
