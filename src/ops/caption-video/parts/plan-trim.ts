// The trim asked at create, planned once the words are timed: the project's cuts, and the seconds they
// take out of the video's length. Planning again (a retried job) gives the same cuts.
import { Effect, Option } from "effect"
import type { TimedWord } from "../../../../domain/captions.ts"
import { VideoStore } from "../../../../domain/ports/video-store.ts"
import { cutSeconds, planCuts } from "../../../../domain/trim.ts"
import { videoWork } from "../../../kernel/video-work.ts"
import { withSpan } from "../../../kernel/spans.ts"

export const planTrim = (videoId: string, durationSeconds: number, words: ReadonlyArray<TimedWord>) =>
  Effect.gen(function*() {
    const videos = yield* VideoStore
    const edits = yield* videos.getCaptionEdits(videoId)
    if (Option.isNone(edits) || edits.value.trim === null) return
    const cuts = planCuts(words, durationSeconds, edits.value.trim)
    yield* videos.saveCaptionEdits(videoId, { ...edits.value, cuts })
    yield* videoWork.apply(videoId, (at) => ({ _tag: "Trimmed", cutSeconds: cutSeconds(cuts), at }))
    yield* Effect.logInfo("trim planned").pipe(Effect.annotateLogs({ videoId, cuts: cuts.length, cutSeconds: cutSeconds(cuts) }))
  }).pipe(withSpan("planTrim", { attributes: { videoId } }))
