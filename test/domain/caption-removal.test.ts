// A caption removal's life: steps forward only, charges added up, completion after detection, refunds on
// failure, terminal states final; and its public object.
import { describe, expect, it } from "@effect/vitest"
import { Either, JSONSchema, Schema } from "effect"
import {
  applyRemovalEvent,
  CaptionRemovalObject,
  type CaptionRemovalRecord,
  hasReachedRemovalStep,
  isTerminal,
  newCaptionRemoval,
  presentRemoval,
  type RemovalEvent,
  type RemovalStep,
  removalTransition
} from "../../domain/caption-removal.ts"
import type { TextRegion } from "../../domain/text-regions.ts"

const ID = "5c1d9e2a-7b3f-4a6e-8d0c-2f4e6a8b0c1d"
const at = (second: number): string => new Date(Date.UTC(2025, 0, 1, 0, 0, second)).toISOString()

const create = (): CaptionRemovalRecord =>
  newCaptionRemoval({
    id: ID,
    workspaceId: "ws-1",
    source: { url: "https://cdn.example.com/in.mp4" },
    webhookUrl: "https://hooks.example.com/in?secret=s3cret",
    options: { target: "captions", region: { x: 0, y: 320, width: 360, height: 320 } },
    at: at(0)
  })

const run = (removal: CaptionRemovalRecord, ...events: ReadonlyArray<RemovalEvent>): CaptionRemovalRecord =>
  events.reduce((current, event) => {
    const result = applyRemovalEvent(current, event)
    if (Either.isLeft(result)) throw new Error(`${event._tag} refused: ${result.left.reason}`)
    return result.right
  }, removal)

const refusal = (removal: CaptionRemovalRecord, event: RemovalEvent): string => {
  const result = applyRemovalEvent(removal, event)
  if (Either.isRight(result)) throw new Error(`${event._tag} was accepted from ${removal.status}/${removal.step}`)
  return result.left.reason
}

const caption: TextRegion = {
  kind: "caption",
  box: { x: 20, y: 500, width: 320, height: 60 },
  startSeconds: 0.5,
  endSeconds: 2,
  score: 0.91
}

const step = (s: RemovalStep, second: number): RemovalEvent => ({
  _tag: "StepStarted",
  step: s,
  at: at(second)
})

/** Up to detection: fetched, probed, charged for finding the text, and the text found. */
const detected = (regions: ReadonlyArray<TextRegion>): ReadonlyArray<RemovalEvent> => [
  step("fetching_source", 1),
  { _tag: "SourceStored", fileId: "file-source", at: at(2) },
  step("probing", 3),
  { _tag: "SourceProbed", facts: { durationSeconds: 3, width: 360, height: 640 }, at: at(4) },
  { _tag: "Charged", credits: 2, at: at(5) },
  step("detecting", 6),
  { _tag: "Detected", regions, at: at(7) }
]

const completed = (second: number, share: number | null = 0.05): RemovalEvent => ({
  _tag: "Completed",
  resultFileId: "file-result",
  textRemainingShare: share,
  at: at(second)
})
const failed = (second: number, refundedCredits: number): RemovalEvent => ({
  _tag: "Failed",
  error: "the encoder stopped",
  refundedCredits,
  at: at(second)
})

describe("applyRemovalEvent", () => {
  it("starts queued and processing, with nothing charged, found or made", () => {
    const removal = create()
    expect(removal).toMatchObject({
      status: "processing",
      step: "queued",
      sourceUrl: "https://cdn.example.com/in.mp4",
      sourceFileId: null,
      resultFileId: null,
      regions: null,
      creditsCharged: 0,
      refunded: false,
      refundedCredits: 0,
      createdAt: at(0),
      updatedAt: at(0)
    })
    expect(isTerminal(removal)).toBe(false)
  })

  it("records the source, its facts, the regions and every charge, then completes with the result", () => {
    const removing = run(create(), ...detected([caption]), step("removing", 8), { _tag: "Charged", credits: 8, at: at(9) })
    expect(removing).toMatchObject({
      step: "removing",
      sourceFileId: "file-source",
      durationSeconds: 3,
      width: 360,
      height: 640,
      regions: [caption],
      creditsCharged: 10,
      updatedAt: at(9)
    })
    const done = run(removing, step("checking", 10), completed(11))
    expect(done).toMatchObject({
      status: "completed",
      step: "completed",
      resultFileId: "file-result",
      textRemainingShare: 0.05,
      creditsCharged: 10,
      refunded: false,
      error: null,
      updatedAt: at(11)
    })
    expect(isTerminal(done)).toBe(true)
  })

  it("completes with no regions found, straight after detection", () => {
    const done = run(create(), ...detected([]), completed(8, null))
    expect(done).toMatchObject({ status: "completed", step: "completed", regions: [], textRemainingShare: null })
  })

  it("refuses completion before the text was looked for, and a share outside 0..1", () => {
    const probed = run(create(), ...detected([caption]).slice(0, 4))
    expect(refusal(probed, completed(5))).toBe("the text has not been looked for yet")
    const found = run(create(), ...detected([caption]))
    expect(refusal(found, completed(8, 1.5))).toMatch(/between 0 and 1/)
    expect(refusal(found, completed(8, -0.1))).toMatch(/between 0 and 1/)
    expect(refusal(found, completed(8, Number.NaN))).toMatch(/between 0 and 1/)
  })

  it("moves steps forward only, and never to completed by a step", () => {
    const detecting = run(create(), ...detected([caption]))
    expect(refusal(detecting, step("probing", 8))).toBe("steps only move forward")
    expect(refusal(detecting, step("completed", 8))).toBe("completion happens through Completed")
    // The same step again is a resumed job recording where it stands; it can tell which steps are behind it.
    expect(run(detecting, step("detecting", 8)).step).toBe("detecting")
    expect(hasReachedRemovalStep(detecting, "probing")).toBe(true)
    expect(hasReachedRemovalStep(detecting, "detecting")).toBe(true)
    expect(hasReachedRemovalStep(detecting, "removing")).toBe(false)
  })

  it("refuses charges and refunds that are not whole, non-negative credits", () => {
    const removal = create()
    expect(refusal(removal, { _tag: "Charged", credits: -1, at: at(1) })).toMatch(/whole, non-negative/)
    expect(refusal(removal, { _tag: "Charged", credits: 1.5, at: at(1) })).toMatch(/whole, non-negative/)
    expect(refusal(removal, failed(1, -2))).toMatch(/whole, non-negative/)
  })

  it("fails where it stands, with the error and the credits refunded", () => {
    const removing = run(create(), ...detected([caption]), step("removing", 8), { _tag: "Charged", credits: 8, at: at(9) })
    const gone = run(removing, failed(10, 8))
    expect(gone).toMatchObject({
      status: "failed",
      step: "removing",
      error: "the encoder stopped",
      refunded: true,
      refundedCredits: 8,
      creditsCharged: 10,
      updatedAt: at(10)
    })
    expect(isTerminal(gone)).toBe(true)
  })

  it("fails with nothing refunded when nothing was charged, and never refunds more than was charged", () => {
    const gone = run(create(), step("fetching_source", 1), failed(2, 0))
    expect(gone).toMatchObject({ status: "failed", step: "fetching_source", refunded: false, refundedCredits: 0 })
    const charged = run(create(), ...detected([caption]))
    expect(refusal(charged, failed(8, 3))).toBe("more credits refunded than were charged")
  })

  it("refuses every event once completed or failed", () => {
    const done = run(create(), ...detected([caption]), completed(8))
    const gone = run(create(), failed(1, 0))
    const events: ReadonlyArray<RemovalEvent> = [
      step("checking", 20),
      { _tag: "SourceStored", fileId: "other", at: at(20) },
      { _tag: "SourceProbed", facts: { durationSeconds: 1, width: 2, height: 2 }, at: at(20) },
      { _tag: "Charged", credits: 1, at: at(20) },
      { _tag: "Detected", regions: [], at: at(20) },
      completed(20),
      failed(20, 0)
    ]
    for (const event of events) {
      expect(refusal(done, event)).toBe("the removal is completed")
      expect(refusal(gone, event)).toBe("the removal is failed")
    }
  })
})

describe("removalTransition", () => {
  it("asks for one end event when the removal ends, and for nothing on the way", () => {
    const found = run(create(), ...detected([caption]))
    const effectsOf = (removal: CaptionRemovalRecord, event: RemovalEvent) => Either.getOrThrow(removalTransition(removal, event)).effects
    expect(effectsOf(create(), step("fetching_source", 1))).toEqual([])
    expect(effectsOf(found, completed(8))).toEqual([{ _tag: "Emit", event: "caption_removal.completed", dedupeKey: ID }])
    expect(effectsOf(found, failed(8, 2))).toEqual([{ _tag: "Emit", event: "caption_removal.failed", dedupeKey: ID }])
    expect(Either.isLeft(removalTransition(run(found, completed(8)), failed(9, 0)))).toBe(true)
  })
})

describe("presentRemoval", () => {
  const encode = Schema.encodeSync(CaptionRemovalObject)

  it("shows a new removal with empty regions and none of the optional fields, never the webhook URL", () => {
    const shown = presentRemoval(create(), null)
    expect(shown).toEqual({
      id: ID,
      status: "processing",
      step: "queued",
      createdAt: at(0),
      creditsCharged: 0,
      refunded: false,
      regions: []
    })
    expect(JSON.stringify(encode(shown))).not.toContain("s3cret")
  })

  it("shows a completed removal's link, facts, regions and remaining share", () => {
    const done = run(create(), ...detected([caption]), completed(8, 0.25))
    expect(encode(presentRemoval(done, "https://api.example.com/files/t/out.mp4"))).toEqual({
      id: ID,
      status: "completed",
      step: "completed",
      createdAt: at(0),
      videoUrl: "https://api.example.com/files/t/out.mp4",
      creditsCharged: 2,
      refunded: false,
      regions: [caption],
      textRemainingShare: 0.25,
      duration: 3,
      width: 360,
      height: 640
    })
  })

  it("shows a failure's error and the credits refunded", () => {
    const gone = run(create(), ...detected([caption]), failed(8, 2))
    expect(encode(presentRemoval(gone, null))).toMatchObject({
      status: "failed",
      step: "detecting",
      error: "the encoder stopped",
      refunded: true,
      refundedCredits: 2
    })
  })

  it("describes every field of the public object in its JSON Schema", () => {
    const document = JSONSchema.make(CaptionRemovalObject) as {
      readonly $defs: Record<string, { readonly properties: Record<string, { readonly description?: string }> }>
    }
    const properties = document.$defs["CaptionRemoval"]?.properties ?? {}
    expect(Object.keys(properties)).toHaveLength(Object.keys(CaptionRemovalObject.fields).length)
    expect(Object.entries(properties).filter(([, p]) => p.description === undefined).map(([name]) => name)).toEqual([])
  })
})
