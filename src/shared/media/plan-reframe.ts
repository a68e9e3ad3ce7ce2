// The reframe asked at create, planned once the source is probed (or `face` or `split` asked later of a
// video made without looking, planned by its next render, whose request posted this charge already):
// charged and looked at for faces (`face`, `split`), then the windows' paths saved as the project's
// framing, which the export draws.
// What the looking found is kept, so an edit can plan the other face mode without looking again.
// Planning again (a retried job) looks again and charges nothing more.
import { Effect, Option } from "effect"
import { FaceFinder } from "../../../domain/ports/face-finder.ts"
import { VideoStore } from "../../../domain/ports/video-store.ts"
import { reframeCredits } from "../../../domain/pricing.ts"
import { needsFaces, planFraming, type ReframeSettings } from "../../../domain/reframe.ts"
import type { VideoRecord } from "../../../domain/video.ts"
import { chargeWork } from "../credits/charge-work.ts"
import { withSpan } from "../../kernel/spans.ts"

export const planReframe = (
  video: VideoRecord,
  sourcePath: string,
  source: { readonly width: number; readonly height: number; readonly durationSeconds: number },
  settings: ReframeSettings,
  options: {
    /** What to do again once credits are topped up: the work that looks (a create, or a render). */
    readonly again: string
    /** The share of the looking done, 0 to 1. */
    readonly onProgress?: (fraction: number) => void
  } = { again: "create the video again" }
) =>
  Effect.gen(function*() {
    const { again, onProgress } = options
    const faces = needsFaces(settings.mode)
      ? yield* chargeWork(video, "reframing", reframeCredits(source.durationSeconds), `Reframing was not charged; top up credits and ${again}.`).pipe(
        Effect.zipRight(Effect.flatMap(FaceFinder, (finder) => finder.find({ input: sourcePath, ...source, ...(onProgress === undefined ? {} : { onProgress }) })))
      )
      : null
    const framing = planFraming(settings, source, faces)
    const videos = yield* VideoStore
    if (faces !== null) yield* videos.saveFaceAnalysis(video.id, { source: { width: source.width, height: source.height, durationSeconds: source.durationSeconds }, faces })
    const edits = Option.getOrThrow(yield* videos.getCaptionEdits(video.id))
    yield* videos.saveCaptionEdits(video.id, { ...edits, framing })
    yield* Effect.logInfo("framing planned").pipe(Effect.annotateLogs({
      videoId: video.id,
      mode: framing.mode,
      keys: framing.paths.reduce((n, path) => n + path.length, 0),
      samplesWithFaces: faces?.samples.filter((s) => s.faces.length > 0).length ?? 0,
      samples: faces?.samples.length ?? 0,
      sceneCuts: faces?.sceneCuts.length ?? 0
    }))
  }).pipe(withSpan("planReframe", { attributes: { videoId: video.id, mode: settings.mode, aspectRatio: settings.aspectRatio } }))
