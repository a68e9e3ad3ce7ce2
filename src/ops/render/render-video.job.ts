// The export: charge, (a caption video switched to face or split after it was made: look for its faces,)
// lay out the captions in the template's style with the editor's edits, encode (burned into a caption
// video's source, or a generated video's timeline) in one pass, store the mp4 and its thumbnail. The charge is
// in credits, or with BYOK in cash (charge-render); a failure refunds it (through the Failed transition).
import { Duration, Effect, Fiber, Option } from "effect"
import { WorkFailed } from "../../../domain/errors.ts"
import { MediaEngine } from "../../../domain/ports/media-engine.ts"
import { TimelineRenderer } from "../../../domain/ports/timeline-renderer.ts"
import { VideoStore } from "../../../domain/ports/video-store.ts"
import { WorkspaceStore } from "../../../domain/ports/workspace-store.ts"
import { RenderOptions } from "../../../domain/rules.ts"
import { outputSeconds, type VideoRecord, workKey } from "../../../domain/video.ts"
import { Done, handle } from "../../kernel/job.ts"
import { RenderVideo } from "../../kernel/job-catalogue.ts"
import { recordRealtimeFactor, renderRealtimeFactor } from "../../kernel/metrics.ts"
import { videoWork } from "../../kernel/video-work.ts"
import { localSource, withScratchDir } from "../../shared/media/scratch.ts"
import { captionsToBurn } from "../videos/get-video-captions.ts"
import { storeFile } from "../../shared/media/store-file.ts"
import { planReframe } from "../../shared/media/plan-reframe.ts"
import { chargeRender } from "./parts/charge-render.ts"
import { facesAsked } from "./parts/faces-asked.ts"
import { generatedTimeline } from "./parts/generated-timeline.ts"

/** The job belongs to the work the video is doing now; a stale or repeated job does nothing. */
const isCurrent = (video: VideoRecord, key: string): boolean =>
  workKey(video) === key &&
  ((video.status === "processing" && video.generated) || video.export?.status === "rendering")

const PROGRESS_EVERY = Duration.seconds(2)

/**
 * The export's progress where its job first looks for faces: the looking's share, then the encode's. A
 * minute of 1080p takes about a fifth of its re-encode to look at (bench/reframe.ts, (f)).
 */
const LOOKING_SHARE = 0.15

/** Records the encoder's progress in the export every few seconds, when it moved. */
const reportExportProgress = (videoId: string, latest: () => number) =>
  Effect.gen(function*() {
    let recorded = 0
    for (;;) {
      yield* Effect.sleep(PROGRESS_EVERY)
      const fraction = Math.floor(latest() * 100) / 100
      if (fraction > recorded) {
        recorded = fraction
        yield* videoWork.apply(videoId, (at) => ({ _tag: "ExportProgressed", fraction, at }))
      }
    }
  })

export const renderVideo = (videoId: string, key: string, options: RenderOptions) =>
  withScratchDir(`${videoId}-render`, (dir) =>
    Effect.gen(function*() {
      const videos = yield* VideoStore
      const video = yield* videos.getById(videoId).pipe(Effect.map(Option.getOrThrow))
      if (!isCurrent(video, key)) return
      const { durationSeconds, width, height } = video
      if (durationSeconds === null || width === null || height === null) {
        return yield* Effect.dieMessage(`video ${videoId} was generated without its source facts`)
      }
      yield* chargeRender(video, options.frameRate)
      const fraction = { latest: 0 }
      const reporter = video.export?.status === "rendering"
        ? yield* Effect.forkScoped(reportExportProgress(videoId, () => fraction.latest))
        : null
      const source = video.kind === "caption" ? yield* localSource(video, dir) : null
      // `face` or `split` asked after the video was made: its faces are looked for before the captions are
      // laid out, charged as at create (its request posted that charge already) and kept, so later renders
      // plan from them.
      const faces = yield* facesAsked(video)
      if (source !== null && faces !== null) {
        const { sourceHeight, sourceWidth } = faces.framing
        yield* planReframe(video, source, { width: sourceWidth, height: sourceHeight, durationSeconds }, faces.asked, {
          again: "call the render operation again",
          onProgress: (f) => {
            fraction.latest = LOOKING_SHARE * f
          }
        })
      }
      const looked = faces === null ? 0 : LOOKING_SHARE
      const onProgress = (f: number) => {
        fraction.latest = looked + (1 - looked) * f
      }
      const { edits, outputPages, pages, style, words } = yield* captionsToBurn(video)
      const captions = { pages: outputPages ?? pages, style, hook: edits.hook, platform: edits.platform }
      const seconds = outputSeconds(video)
      const media = yield* MediaEngine
      const output = `${dir}/video.mp4`
      const encode = source !== null
        ? media.burnCaptions({
          input: source,
          output,
          captions,
          cuts: edits.cuts,
          ...(edits.framing === null ? {} : { framing: edits.framing }),
          format: options.format,
          frameRate: options.frameRate,
          width,
          height,
          onProgress
        })
        : Effect.flatMap(
          generatedTimeline({
            video,
            project: yield* videos.getProject(videoId).pipe(Effect.map(Option.getOrThrow)),
            words,
            captions,
            options,
            dir
          }),
          (played) => Effect.flatMap(TimelineRenderer, (renderer) => renderer.render({ ...played, output, workDir: `${dir}/timeline`, onProgress }))
        )
      yield* Effect.annotateCurrentSpan({ "media.duration_seconds": seconds, "media.width": width, "media.height": height, "video.kind": video.kind })
      yield* encode.pipe(
        Effect.timed,
        Effect.tap(([d]) =>
          Effect.logInfo("render encoded").pipe(
            Effect.annotateLogs({ videoId, durationMs: Math.round(Duration.toMillis(d)) }),
            Effect.zipRight(recordRealtimeFactor(renderRealtimeFactor, { kind: video.kind }, d, seconds))
          ))
      )
      if (reporter !== null) yield* Fiber.interrupt(reporter)
      const thumb = `${dir}/thumbnail.jpg`
      yield* media.thumbnail(output, thumb, Math.min(1, seconds / 2))
      const workspace = yield* (yield* WorkspaceStore).get(video.workspaceId).pipe(Effect.map(Option.getOrThrow))
      const stem = `${video.kind === "caption" ? "captions" : video.kind}${options.format === "greenscreen" ? "-greenscreen" : ""}`
      const mp4 = yield* storeFile(workspace, { path: output, name: `${stem}-${options.frameRate}fps.mp4`, contentType: "video/mp4" })
      const jpg = yield* storeFile(workspace, { path: thumb, name: "thumbnail.jpg", contentType: "image/jpeg" })
      yield* videoWork.apply(videoId, (at) => ({ _tag: "Rendered", videoFileId: mp4.id, thumbnailFileId: jpg.id, at }))
    }).pipe(Effect.scoped))

export const renderJob = handle(RenderVideo, {
  run: ({ videoId, workKey: key, options }) =>
    renderVideo(videoId, key, options).pipe(Effect.catchTag("WorkFailed", (failure) => videoWork.fail(videoId, failure)), Effect.as(Done)),
  onDead: ({ videoId }, error) =>
    videoWork.fail(
      videoId,
      new WorkFailed({ message: `Rendering stopped after repeated internal errors (${error.slice(0, 200)}). Its charge was refunded; call render again.` })
    )
})
