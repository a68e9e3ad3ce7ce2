// What users can do around a video's life: cancel its work, delete its media, and when a webhook
// event may be redelivered by hand.
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { type GeneratedProject, projectFileIds, projectMediaFileIds } from "../../domain/generated-project.ts"
import type { RenderOptions } from "../../domain/rules.ts"
import {
  CANCELLED_ERROR,
  newCaptionVideo,
  recordFileIds,
  toPublic,
  transition,
  type VideoEffect,
  type VideoEvent,
  type VideoRecord
} from "../../domain/video.ts"
import { latestSeries, REDELIVERY_AFTER_MS, redeliverableAt } from "../../domain/webhooks.ts"

const ID = "0b9f3c1e-4d2a-4c6b-9e8f-1a2b3c4d5e6f"
const at = (second: number): string => new Date(Date.UTC(2025, 0, 1, 0, 0, second)).toISOString()

const create = (renderOptions: RenderOptions | null = null): VideoRecord =>
  newCaptionVideo({
    id: ID,
    workspaceId: "ws-1",
    templateId: -1,
    renderOptions,
    webhookUrl: "https://hooks.example.com/in",
    editorToken: "editor-token",
    source: { fileId: "file-source" },
    at: at(0)
  })

const run = (video: VideoRecord, ...events: ReadonlyArray<VideoEvent>) =>
  events.reduce<{ video: VideoRecord; effects: ReadonlyArray<VideoEffect> }>((acc, event) => {
    const result = transition(acc.video, event)
    if (Either.isLeft(result)) throw new Error(`${event._tag} refused: ${result.left.reason}`)
    return { video: result.right.video, effects: [...acc.effects, ...result.right.effects] }
  }, { video, effects: [] })

const refusal = (video: VideoRecord, event: VideoEvent): string => {
  const result = transition(video, event)
  if (Either.isRight(result)) throw new Error(`${event._tag} was accepted from ${video.status}/${video.step}`)
  return result.left.reason
}

const generated: ReadonlyArray<VideoEvent> = [
  { _tag: "StepStarted", step: "probing", at: at(1) },
  { _tag: "SourceProbed", facts: { durationSeconds: 3, width: 360, height: 640 }, at: at(2) },
  { _tag: "StepStarted", step: "transcribing", at: at(3) },
  { _tag: "StepStarted", step: "building_captions", at: at(4) },
  { _tag: "Generated", at: at(5) }
]
const rendered = (second: number): VideoEvent => ({
  _tag: "Rendered",
  videoFileId: `video-${second}`,
  thumbnailFileId: `thumb-${second}`,
  at: at(second)
})
const exportRequested = (second: number): VideoEvent => ({
  _tag: "ExportRequested",
  options: { format: "standard", frameRate: 30 },
  webhookUrl: null,
  at: at(second)
})
const cancelled = (second: number): VideoEvent => ({ _tag: "Cancelled", at: at(second) })
const mediaDeleted = (second: number): VideoEvent => ({ _tag: "MediaDeleted", at: at(second) })

describe("transition: cancel", () => {
  it("fails a processing video with the cancelled error where it stands: stop the job, refund, one video.failed", () => {
    const transcribing = run(create(), ...generated.slice(0, 3)).video
    const { effects, video } = run(transcribing, cancelled(10))
    expect(video).toMatchObject({ status: "failed", step: "transcribing", error: CANCELLED_ERROR, updatedAt: at(10) })
    expect(CANCELLED_ERROR).toMatch(/^cancelled: /)
    expect(effects).toEqual([
      { _tag: "StopWork", workKey: `${ID}:0` },
      { _tag: "RefundWork", workKey: `${ID}:0` },
      { _tag: "Emit", event: "video.failed", dedupeKey: `${ID}:0` }
    ])
  })

  it("fails a running export: the export's own piece of work is stopped and refunded", () => {
    const exporting = run(create(), ...generated, exportRequested(6)).video
    const { effects, video } = run(exporting, cancelled(7))
    expect(video.status).toBe("failed")
    expect(video.export).toMatchObject({ status: "failed", error: CANCELLED_ERROR, finishedAt: at(7) })
    expect(effects.map((e) => e._tag === "Emit" ? e.dedupeKey : e.workKey)).toEqual([`${ID}:1`, `${ID}:1`, `${ID}:1`])
  })

  it("is refused once nothing runs, naming the status", () => {
    const completed = run(create(), ...generated).video
    expect(refusal(completed, cancelled(9))).toBe("the video is completed and no export is running")
    const cancelledOnce = run(create(), cancelled(1)).video
    expect(refusal(cancelledOnce, cancelled(2))).toBe("the video is failed and no export is running")
  })
})

describe("transition: media deletion", () => {
  it("marks a finished video's media deleted, with no effect, and then refuses to render it", () => {
    const completed = run(create({ format: "standard", frameRate: 30 }), ...generated, rendered(6)).video
    const { effects, video } = run(completed, mediaDeleted(8))
    expect(effects).toEqual([])
    expect(video).toMatchObject({ status: "completed", mediaDeletedAt: at(8), videoFileId: "video-6" })
    expect(refusal(video, exportRequested(9))).toMatch(/media were deleted/)
    expect(refusal(video, mediaDeleted(9))).toMatch(/deleted already/)
    // A failed video's media may go too.
    expect(run(run(create(), cancelled(1)).video, mediaDeleted(2)).video.mediaDeletedAt).toBe(at(2))
  })

  it("is refused while the video processes or an export runs: cancel first", () => {
    expect(refusal(create(), mediaDeleted(1))).toMatch(/still processing; cancel it first/)
    const exporting = run(create(), ...generated, exportRequested(6)).video
    expect(refusal(exporting, mediaDeleted(7))).toMatch(/export is running; cancel it first/)
  })

  it("keeps the files of replaced exports among the video's files", () => {
    const { video } = run(create({ format: "standard", frameRate: 30 }), ...generated, rendered(6), exportRequested(7), rendered(8))
    expect(video.replacedFileIds).toEqual(["video-6", "thumb-6"])
    expect(recordFileIds(video)).toEqual(["file-source", "video-8", "thumb-8", "video-6", "thumb-6"])
    expect(recordFileIds(create())).toEqual(["file-source"])
  })

  it("names a generated project's narration, pictures and made footage, never uploads", () => {
    const base = { script: "s", voiceId: "v", aspectRatio: "9:16", seed: 1, narrationFileId: "narration" } as const
    const illustrated: GeneratedProject = {
      ...base,
      visuals: {
        _tag: "Illustrated",
        artStyleId: "ink",
        scenes: [
          { text: "a", startSeconds: 0, durationSeconds: 1, imageFileId: "picture-1", motion: "none" },
          { text: "b", startSeconds: 1, durationSeconds: 1, imageFileId: null, motion: "none" }
        ]
      }
    }
    expect(projectFileIds(illustrated)).toEqual(["narration", "picture-1"])
    const storedFootage = { _tag: "Gameplay", footage: { _tag: "Game", game: "runner" }, top: "upload-top", footageFileId: "footage" } as const
    const gameplay: GeneratedProject = { ...base, visuals: storedFootage }
    // Footage an earlier version stored, and the editor's picture, go with the media, but a render never needs them.
    expect(projectFileIds(gameplay)).toEqual(["narration"])
    const pictured: GeneratedProject = { ...gameplay, editorPicture: { _tag: "Ready", fileId: "editor-picture" } }
    expect(projectFileIds(pictured)).toEqual(["narration"])
    expect(projectMediaFileIds(pictured)).toEqual(["narration", "footage", "editor-picture"])
    expect(projectMediaFileIds({ ...gameplay, editorPicture: { _tag: "Failed", error: "boom" } })).toEqual(["narration", "footage"])
    const { footageFileId: _, ...drawnAtRender } = storedFootage
    expect(projectMediaFileIds({ ...gameplay, visuals: drawnAtRender })).toEqual(["narration"])
  })

  it("shows mediaDeletedAt in the public object once set", () => {
    const links = { editorUrl: "https://x/editor/t", videoUrl: null, thumbnailUrl: null }
    expect(toPublic(create(), links).mediaDeletedAt).toBeUndefined()
    const deleted = run(run(create(), cancelled(1)).video, mediaDeleted(2)).video
    expect(toPublic(deleted, links).mediaDeletedAt).toBe(at(2))
  })
})

describe("redelivery rule", () => {
  const createdAt = "2025-01-01T00:00:00.000Z"
  const created = Date.parse(createdAt)
  const attempt = (series: number, startedAtMs: number) => ({ series, startedAt: new Date(startedAtMs).toISOString() })

  it("never while the event is pending, whatever the time", () => {
    expect(redeliverableAt({ state: "pending", createdAt }, [attempt(1, created)])).toBeNull()
  })

  it("24 hours after the event was created for the automatic series, delivered or dropped", () => {
    expect(REDELIVERY_AFTER_MS).toBe(24 * 60 * 60 * 1000)
    expect(redeliverableAt({ state: "delivered", createdAt }, [attempt(1, created + 5)])).toBe(created + REDELIVERY_AFTER_MS)
    expect(redeliverableAt({ state: "dropped", createdAt }, [])).toBe(created + REDELIVERY_AFTER_MS)
  })

  it("24 hours after the first attempt of the latest redelivery", () => {
    const redelivered = created + 3 * REDELIVERY_AFTER_MS
    const attempts = [attempt(1, created), attempt(2, redelivered), attempt(2, redelivered + 30_000)]
    expect(latestSeries(attempts)).toBe(2)
    expect(latestSeries([])).toBe(1)
    expect(redeliverableAt({ state: "delivered", createdAt }, attempts)).toBe(redelivered + REDELIVERY_AFTER_MS)
  })
})
