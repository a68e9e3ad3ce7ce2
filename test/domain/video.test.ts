// The video state machine: the pipeline, exports, failures, and the one-event-per-piece-of-work rule.
import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc, Schema } from "effect"
import type { RenderOptions } from "../../domain/rules.ts"
import { newCaptionVideo, STEPS, toPublic, transition, Video, workKey } from "../../domain/video.ts"
import type { VideoEffect, VideoEvent, VideoRecord } from "../../domain/video.ts"

const ID = "0b9f3c1e-4d2a-4c6b-9e8f-1a2b3c4d5e6f"
const HOOK = "https://hooks.example.com/receiver?secret=s3cr3t-in-query"

const at = (second: number): string => new Date(Date.UTC(2025, 0, 1, 0, 0, second)).toISOString()

const create = (renderOptions: RenderOptions | null = null): VideoRecord =>
  newCaptionVideo({
    id: ID,
    workspaceId: "ws-1",
    templateId: -1,
    renderOptions,
    webhookUrl: HOOK,
    editorToken: "editor-token",
    source: { url: "https://media.example.com/clip.mp4" },
    at: at(0)
  })

interface Applied {
  readonly video: VideoRecord
  readonly effects: ReadonlyArray<VideoEffect>
}

/** Applies events that must all be accepted, collecting every effect. */
const run = (video: VideoRecord, ...events: ReadonlyArray<VideoEvent>): Applied =>
  events.reduce<Applied>((acc, event) => {
    const result = transition(acc.video, event)
    if (Either.isLeft(result)) throw new Error(`${event._tag} refused: ${result.left.reason}`)
    return { video: result.right.video, effects: [...acc.effects, ...result.right.effects] }
  }, { video, effects: [] })

const refusal = (video: VideoRecord, event: VideoEvent): string => {
  const result = transition(video, event)
  if (Either.isRight(result)) throw new Error(`${event._tag} was accepted from ${video.status}/${video.step}`)
  expect(result.left._tag).toBe("IllegalTransition")
  return result.left.reason
}

const pipeline: ReadonlyArray<VideoEvent> = [
  { _tag: "StepStarted", step: "fetching_source", at: at(1) },
  { _tag: "SourceStored", fileId: "file-source", at: at(2) },
  { _tag: "StepStarted", step: "probing", at: at(3) },
  { _tag: "SourceProbed", facts: { durationSeconds: 12.5, width: 360, height: 640 }, at: at(4) },
  { _tag: "StepStarted", step: "extracting_audio", at: at(5) },
  { _tag: "StepStarted", step: "transcribing", at: at(6) },
  { _tag: "StepStarted", step: "building_captions", at: at(7) },
  { _tag: "Generated", at: at(8) }
]

const rendered = (second: number, n = second): VideoEvent => ({
  _tag: "Rendered",
  videoFileId: `video-${n}`,
  thumbnailFileId: `thumb-${n}`,
  at: at(second)
})
const failed = (second: number, error = "the render crashed"): VideoEvent => ({ _tag: "Failed", error, at: at(second) })
const exportRequested = (
  second: number,
  options: RenderOptions = { format: "greenscreen", frameRate: 60 },
  webhookUrl: string | null = null
): VideoEvent => ({ _tag: "ExportRequested", options, webhookUrl, at: at(second) })

const emits = (effects: ReadonlyArray<VideoEffect>) => effects.filter((e) => e._tag === "Emit")

/** A caption video generated without render: completed, work 0 done. */
const completedVideo = (): VideoRecord => run(create(), ...pipeline).video

describe("newCaptionVideo", () => {
  it("starts processing in the queue, with no work done", () => {
    const v = create()
    expect(v).toMatchObject({
      status: "processing",
      step: "queued",
      work: 0,
      generated: false,
      render: false,
      renderOptions: null,
      export: null,
      error: null,
      webhookUrl: HOOK,
      sourceUrl: "https://media.example.com/clip.mp4",
      sourceFileId: null,
      createdAt: at(0),
      updatedAt: at(0)
    })
  })

  it("records render as requested when options are given, and an uploaded source by file id", () => {
    const options: RenderOptions = { format: "standard", frameRate: 30 }
    const v = newCaptionVideo({
      id: ID,
      workspaceId: "ws-1",
      templateId: -3,
      renderOptions: options,
      webhookUrl: null,
      editorToken: "t",
      source: { fileId: "file-1" },
      at: at(0)
    })
    expect(v).toMatchObject({ render: true, renderOptions: options, sourceUrl: null, sourceFileId: "file-1" })
  })
})

describe("transition: generation", () => {
  it("completes without render on Generated, emitting video.completed once", () => {
    const { effects, video } = run(create(), ...pipeline)
    expect(video).toMatchObject({
      status: "completed",
      step: "completed",
      generated: true,
      render: false,
      sourceFileId: "file-source",
      durationSeconds: 12.5,
      width: 360,
      height: 640,
      updatedAt: at(8),
      work: 0
    })
    expect(effects).toEqual([{ _tag: "Emit", event: "video.completed", dedupeKey: `${ID}:0` }])
  })

  it("with render options, Generated starts the render and Rendered completes with one event", () => {
    const options: RenderOptions = { format: "standard", frameRate: 60 }
    const generated = run(create(options), ...pipeline)
    expect(generated.video).toMatchObject({ status: "processing", step: "rendering", generated: true })
    expect(generated.effects).toEqual([{ _tag: "StartRender", options, workKey: `${ID}:0` }])

    const done = run(generated.video, rendered(9))
    expect(done.video).toMatchObject({
      status: "completed",
      step: "completed",
      videoFileId: "video-9",
      thumbnailFileId: "thumb-9",
      export: null
    })
    expect(done.effects).toEqual([{ _tag: "Emit", event: "video.completed", dedupeKey: `${ID}:0` }])
  })

  it("fails at any step with an error, a refund and video.failed, keeping the step it failed in", () => {
    const { effects, video } = run(create(), ...pipeline.slice(0, 6), failed(7, "no speech found"))
    expect(video).toMatchObject({ status: "failed", step: "transcribing", error: "no speech found", generated: false })
    expect(effects).toEqual([
      { _tag: "RefundWork", workKey: `${ID}:0` },
      { _tag: "Emit", event: "video.failed", dedupeKey: `${ID}:0` }
    ])
  })

  it("steps never go backwards, and completion only comes through Generated or Rendered", () => {
    const v = run(create(), ...pipeline.slice(0, 6)).video
    expect(v.step).toBe("transcribing")
    expect(refusal(v, { _tag: "StepStarted", step: "probing", at: at(9) })).toMatch(/forward/)
    expect(refusal(v, { _tag: "StepStarted", step: "queued", at: at(9) })).toMatch(/forward/)
    expect(refusal(v, { _tag: "StepStarted", step: "completed", at: at(9) })).toMatch(/Generated or Rendered/)
    expect(run(v, { _tag: "StepStarted", step: "transcribing", at: at(9) }).video.step).toBe("transcribing")
  })

  it("refuses a second Generated and a Rendered with no render running", () => {
    const processing = run(create(), pipeline[0]!).video
    refusal(processing, rendered(9))
    const waitingForRender = run(create({ format: "standard", frameRate: 30 }), ...pipeline).video
    refusal(waitingForRender, { _tag: "Generated", at: at(9) })
    refusal(completedVideo(), { _tag: "Generated", at: at(9) })
  })

  it("refuses an export while the video is still processing", () => {
    expect(refusal(run(create(), pipeline[0]!).video, exportRequested(9))).toMatch(/still being generated/)
  })
})

describe("transition: export (the render operation)", () => {
  it("on a completed video adds a piece of work and starts a render; the status stays completed", () => {
    const options: RenderOptions = { format: "greenscreen", frameRate: 60 }
    const { effects, video } = run(completedVideo(), exportRequested(20, options))
    expect(video).toMatchObject({
      status: "completed",
      step: "completed",
      work: 1,
      render: true,
      webhookUrl: HOOK,
      export: { status: "rendering", format: "greenscreen", frameRate: 60, startedAt: at(20) }
    })
    expect(effects).toEqual([{ _tag: "StartRender", options, workKey: `${ID}:1` }])
  })

  it("replaces the stored webhookUrl when one is given", () => {
    const replaced = "https://other.example.com/hook"
    expect(run(completedVideo(), exportRequested(20, undefined, replaced)).video.webhookUrl).toBe(replaced)
  })

  it("Rendered completes the export with one event keyed by the new piece of work", () => {
    const { effects, video } = run(completedVideo(), exportRequested(20), rendered(21))
    expect(video).toMatchObject({
      status: "completed",
      videoFileId: "video-21",
      thumbnailFileId: "thumb-21",
      export: { status: "completed", format: "greenscreen", frameRate: 60, startedAt: at(20), finishedAt: at(21) }
    })
    expect(emits(effects)).toEqual([{ _tag: "Emit", event: "video.completed", dedupeKey: `${ID}:1` }])
  })

  it("Failed during an export fails the video, refunds that work and emits video.failed", () => {
    const { effects, video } = run(completedVideo(), exportRequested(20), failed(21, "encoder died"))
    expect(video).toMatchObject({
      status: "failed",
      error: "encoder died",
      work: 1,
      export: { status: "failed", finishedAt: at(21), error: "encoder died" }
    })
    expect(effects.slice(1)).toEqual([
      { _tag: "RefundWork", workKey: `${ID}:1` },
      { _tag: "Emit", event: "video.failed", dedupeKey: `${ID}:1` }
    ])
  })

  it("is allowed again after a failed export, and a later success clears the error", () => {
    const failedExport = run(completedVideo(), exportRequested(20), failed(21)).video
    const { effects, video } = run(failedExport, exportRequested(22, { format: "standard", frameRate: 30 }), rendered(23))
    expect(video).toMatchObject({ status: "completed", error: null, work: 2, export: { status: "completed" } })
    expect(emits(effects)).toEqual([{ _tag: "Emit", event: "video.completed", dedupeKey: `${ID}:2` }])
  })

  it("is allowed after a failure that came after generation (the first render failed)", () => {
    const options: RenderOptions = { format: "standard", frameRate: 30 }
    const renderFailed = run(create(options), ...pipeline, failed(9)).video
    expect(renderFailed).toMatchObject({ status: "failed", generated: true })
    const { effects, video } = run(renderFailed, exportRequested(10, options))
    expect(video.work).toBe(1)
    expect(effects).toEqual([{ _tag: "StartRender", options, workKey: `${ID}:1` }])
  })

  it("is refused when the video failed before its captions were timed", () => {
    const early = run(create(), pipeline[0]!, failed(2, "source unreachable")).video
    expect(refusal(early, exportRequested(3))).toMatch(/before its captions were timed/)
  })

  it("is refused while another export is running", () => {
    const exporting = run(completedVideo(), exportRequested(20)).video
    expect(refusal(exporting, exportRequested(21))).toMatch(/already running/)
  })

  it("started in the editor: the export completes or fails (refunded) without an event", () => {
    const fromEditor: VideoEvent = { _tag: "ExportRequested", options: { format: "standard", frameRate: 30 }, webhookUrl: null, startedIn: "editor", at: at(20) }
    const done = run(completedVideo(), fromEditor, rendered(21))
    expect(done.video.export).toMatchObject({ status: "completed", startedIn: "editor" })
    expect(emits(done.effects)).toEqual([])
    const broken = run(completedVideo(), fromEditor, failed(21))
    expect(broken.video.status).toBe("failed")
    expect(broken.effects.slice(1)).toEqual([{ _tag: "RefundWork", workKey: `${ID}:1` }])
    // The next export from the API announces itself again.
    const again = run(done.video, exportRequested(22), rendered(23))
    expect(again.video.export).toMatchObject({ startedIn: "api" })
    expect(emits(again.effects)).toEqual([{ _tag: "Emit", event: "video.completed", dedupeKey: `${ID}:2` }])
  })

  it("while exporting, only Rendered and Failed are accepted", () => {
    const exporting = run(completedVideo(), exportRequested(20)).video
    refusal(exporting, { _tag: "StepStarted", step: "rendering", at: at(21) })
    refusal(exporting, { _tag: "SourceStored", fileId: "f", at: at(21) })
    refusal(exporting, { _tag: "SourceProbed", facts: { durationSeconds: 1, width: 2, height: 2 }, at: at(21) })
    refusal(exporting, { _tag: "Generated", at: at(21) })
  })
})

describe("transition: export progress", () => {
  it("moves the running export's progress, clamped to 0..1, and nothing else", () => {
    const exporting = run(completedVideo(), exportRequested(20)).video
    expect(exporting.export?.progress).toBe(0)
    const half = run(exporting, { _tag: "ExportProgressed", fraction: 0.5, at: at(21) })
    expect(half.video.export?.progress).toBe(0.5)
    expect(half.video.status).toBe("completed")
    expect(half.effects).toEqual([])
    expect(run(exporting, { _tag: "ExportProgressed", fraction: 7, at: at(21) }).video.export?.progress).toBe(1)
    expect(run(half.video, rendered(22)).video.export?.progress).toBe(1)
    refusal(create(), { _tag: "ExportProgressed", fraction: 0.5, at: at(1) })
  })
})

describe("transition: terminal states", () => {
  const others: ReadonlyArray<VideoEvent> = [
    { _tag: "StepStarted", step: "rendering", at: at(30) },
    { _tag: "SourceStored", fileId: "f", at: at(30) },
    { _tag: "SourceProbed", facts: { durationSeconds: 1, width: 2, height: 2 }, at: at(30) },
    { _tag: "Generated", at: at(30) },
    { _tag: "ExportProgressed", fraction: 0.5, at: at(30) },
    rendered(30),
    failed(30)
  ]
  const terminals: ReadonlyArray<[string, () => VideoRecord]> = [
    ["completed", completedVideo],
    ["failed early", () => run(create(), failed(1)).video],
    ["failed after generation", () => run(create({ format: "standard", frameRate: 30 }), ...pipeline, failed(9)).video],
    ["export completed", () => run(completedVideo(), exportRequested(20), rendered(21)).video],
    ["export failed", () => run(completedVideo(), exportRequested(20), failed(21)).video]
  ]
  for (const [name, make] of terminals) {
    it(`${name}: refuses everything but ExportRequested`, () => {
      const v = make()
      expect(v.status).not.toBe("processing")
      for (const event of others) refusal(v, event)
    })
  }
})

const renderOptionsArb: fc.Arbitrary<RenderOptions> = fc.record({
  format: fc.constantFrom<RenderOptions["format"]>("standard", "greenscreen"),
  frameRate: fc.constantFrom<RenderOptions["frameRate"]>(30, 60)
})

/** Events with a placeholder time; the property stamps each with its position. Failures are rarer so that
 * sequences often reach exports. */
const eventArb: fc.Arbitrary<VideoEvent> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...STEPS).map((step): VideoEvent => ({ _tag: "StepStarted", step, at: "" })) },
  { weight: 1, arbitrary: fc.constant<VideoEvent>({ _tag: "SourceStored", fileId: "f", at: "" }) },
  {
    weight: 1,
    arbitrary: fc.constant<VideoEvent>({
      _tag: "SourceProbed",
      facts: { durationSeconds: 3, width: 360, height: 640 },
      at: ""
    })
  },
  { weight: 3, arbitrary: fc.constant<VideoEvent>({ _tag: "Generated", at: "" }) },
  {
    weight: 1,
    arbitrary: fc.double({ min: -1, max: 2, noNaN: true }).map((fraction): VideoEvent => ({ _tag: "ExportProgressed", fraction, at: "" }))
  },
  {
    weight: 3,
    arbitrary: fc.tuple(renderOptionsArb, fc.option(fc.constant("https://new.example.com/hook"), { nil: null })).map((
      [options, webhookUrl]
    ): VideoEvent => ({ _tag: "ExportRequested", options, webhookUrl, at: "" }))
  },
  {
    weight: 3,
    arbitrary: fc.nat(99).map((n): VideoEvent => ({
      _tag: "Rendered",
      videoFileId: `v${n}`,
      thumbnailFileId: `t${n}`,
      at: ""
    }))
  },
  { weight: 1, arbitrary: fc.constantFrom("boom", "no speech").map((error): VideoEvent => ({ _tag: "Failed", error, at: "" })) }
)

/** Whether the video's current piece of work has reached a terminal status. */
const currentWorkDone = (v: VideoRecord): boolean =>
  v.work === 0 ? v.status !== "processing" : v.export !== null && v.export.status !== "rendering"

describe("transition: properties", () => {
  it.prop(
    "one event per piece of work, refunds only with video.failed, terminal left only through an export",
    { renderOptions: fc.option(renderOptionsArb, { nil: null }), events: fc.array(eventArb, { maxLength: 40 }) },
    ({ events, renderOptions }) => {
      let video = create(renderOptions)
      const dedupeKeys: Array<string> = []
      const finishedWork = new Set<string>()
      events.forEach((unstamped, i) => {
        const event = { ...unstamped, at: at(i + 1) }
        const before = video
        const result = transition(before, event)
        if (Either.isLeft(result)) return
        const { effects, video: after } = result.right
        video = after

        const exporting = before.export?.status === "rendering"
        if (before.status !== "processing" && !exporting) expect(event._tag).toBe("ExportRequested")
        if (before.status !== "processing") expect(after.status).not.toBe("processing")
        expect(STEPS.indexOf(after.step)).toBeGreaterThanOrEqual(STEPS.indexOf(before.step))
        expect(after.work - before.work).toBe(event._tag === "ExportRequested" ? 1 : 0)
        expect(after.updatedAt).toBe(event.at)

        for (const effect of effects) {
          if (effect._tag === "Emit") {
            dedupeKeys.push(effect.dedupeKey)
            expect(effect.dedupeKey).toBe(workKey(after))
            expect(effect.event).toBe(after.status === "completed" ? "video.completed" : "video.failed")
          }
          if (effect._tag === "RefundWork") {
            expect(effects).toContainEqual({ _tag: "Emit", event: "video.failed", dedupeKey: effect.workKey })
          }
          if (effect._tag === "Emit" && effect.event === "video.failed") {
            expect(effects).toContainEqual({ _tag: "RefundWork", workKey: effect.dedupeKey })
          }
          if (effect._tag === "StartRender") expect(effect.workKey).toBe(workKey(after))
        }
        if (currentWorkDone(after)) finishedWork.add(workKey(after))
      })
      expect(new Set(dedupeKeys).size).toBe(dedupeKeys.length)
      expect(new Set(dedupeKeys)).toEqual(finishedWork)
    },
    { fastCheck: { numRuns: 1000 } }
  )
})

describe("toPublic", () => {
  const links = { editorUrl: "https://app.example.com/editor/abc", videoUrl: null, thumbnailUrl: null }

  it("never exposes the webhookUrl", () => {
    const exported = run(completedVideo(), exportRequested(20, undefined, HOOK), failed(21, "encoder died")).video
    const pub = toPublic(exported, { ...links, videoUrl: "https://files.example.com/v.mp4", thumbnailUrl: null })
    const json = JSON.stringify(Schema.encodeSync(Video)(pub))
    expect(Object.keys(pub)).not.toContain("webhookUrl")
    expect(json).not.toContain("webhookUrl")
    expect(json).not.toContain("s3cr3t-in-query")
    expect(json).not.toContain("hooks.example.com")
  })

  it("includes videoUrl and thumbnailUrl only when given", () => {
    const without = toPublic(create(), links)
    expect("videoUrl" in without).toBe(false)
    expect("thumbnailUrl" in without).toBe(false)
    const withUrls = toPublic(completedVideo(), {
      ...links,
      videoUrl: "https://files.example.com/v.mp4",
      thumbnailUrl: "https://files.example.com/t.jpg"
    })
    expect(withUrls.videoUrl).toBe("https://files.example.com/v.mp4")
    expect(withUrls.thumbnailUrl).toBe("https://files.example.com/t.jpg")
  })

  it("carries the spec's fields, and error, duration and export only once known", () => {
    const fresh = toPublic(create(), links)
    expect(fresh).toMatchObject({
      id: ID,
      kind: "caption",
      status: "processing",
      step: "queued",
      render: false,
      createdAt: at(0),
      editorUrl: links.editorUrl,
      templateId: -1
    })
    for (const key of ["error", "duration", "width", "height", "export"]) expect(key in fresh).toBe(false)

    const failedExport = run(completedVideo(), exportRequested(20), failed(21, "encoder died")).video
    const pub = toPublic(failedExport, links)
    expect(pub).toMatchObject({
      status: "failed",
      error: "encoder died",
      duration: 12.5,
      width: 360,
      height: 640,
      export: { status: "failed", error: "encoder died" }
    })
    expect(Schema.decodeUnknownSync(Video)(Schema.encodeSync(Video)(pub))).toEqual(pub)
  })
})
