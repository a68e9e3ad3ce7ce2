// The caption removal record (burned-in text wiped from a video), its public object, and the only
// function allowed to change its state.
import { Either, Schema } from "effect"
import { recordId } from "./record-id.ts"
import { type PixelBox, type RemovalTarget, TextRegion } from "./text-regions.ts"
import { type Emit, IllegalTransition, type SourceFacts } from "./video.ts"
import { announcingEnd, startedWork } from "./work-record.ts"

export const RemovalId = recordId("caption removal")

export const RemovalStatus = Schema.Literal("processing", "completed", "failed").annotations({
  description: "`processing` until the work ends; `completed` and `failed` are terminal."
})
export type RemovalStatus = typeof RemovalStatus.Type

/** Steps in the order they run. `completed` is the last. */
export const REMOVAL_STEPS = [
  "queued",
  "fetching_source",
  "probing",
  "detecting",
  "removing",
  "checking",
  "completed"
] as const
export const RemovalStep = Schema.Literal(...REMOVAL_STEPS).annotations({
  description:
    "Step of the work, in order: queued, fetching_source, probing, detecting (finding the text), removing (wiping it and encoding), " +
    "checking (looking for text left behind), completed. A failed removal keeps the step it failed in."
})
export type RemovalStep = typeof RemovalStep.Type

/** What the create call asked to wipe, and where. */
export interface RemovalOptions {
  readonly target: RemovalTarget
  /** Only text inside this rectangle is wiped; null = anywhere in the frame. */
  readonly region: PixelBox | null
}

/** What the service stores about a caption removal. */
export interface CaptionRemovalRecord {
  readonly id: string
  readonly workspaceId: string
  readonly status: RemovalStatus
  readonly step: RemovalStep
  readonly createdAt: string
  readonly updatedAt: string
  /** Where the source is fetched from, when it was given as a URL. */
  readonly sourceUrl: string | null
  readonly sourceFileId: string | null
  /** The cleaned mp4. */
  readonly resultFileId: string | null
  /** The receiver's URL; a credential, never part of the public object. */
  readonly webhookUrl: string | null
  readonly options: RemovalOptions
  readonly durationSeconds: number | null
  readonly width: number | null
  readonly height: number | null
  /** The text found, once detected (possibly none). */
  readonly regions: ReadonlyArray<TextRegion> | null
  /** Share of the frames sampled after removal on which text remains, 0..1. */
  readonly textRemainingShare: number | null
  readonly creditsCharged: number
  readonly refunded: boolean
  readonly refundedCredits: number
  readonly error: string | null
}

export type RemovalEvent =
  | { readonly _tag: "StepStarted"; readonly step: RemovalStep; readonly at: string }
  | { readonly _tag: "SourceStored"; readonly fileId: string; readonly at: string }
  | { readonly _tag: "SourceProbed"; readonly facts: SourceFacts; readonly at: string }
  /** Adds to the credits charged: finding the text and wiping it are charged separately. */
  | { readonly _tag: "Charged"; readonly credits: number; readonly at: string }
  | { readonly _tag: "Detected"; readonly regions: ReadonlyArray<TextRegion>; readonly at: string }
  /**
   * The cleaned mp4 exists. With no regions found the caller decides what the result is (the source unchanged);
   * the share is null when there was nothing to check.
   */
  | {
    readonly _tag: "Completed"
    readonly resultFileId: string
    readonly textRemainingShare: number | null
    readonly at: string
  }
  | { readonly _tag: "Failed"; readonly error: string; readonly refundedCredits: number; readonly at: string }

/** The removal's charges and refunds share this work key in the ledger. */
export const removalWorkKey = (removalId: string): string => `removal:${removalId}`

/** What the caller must do after a transition, inside the same transaction: announce that the removal ended. */
export type RemovalEffect = Emit<"caption_removal.completed" | "caption_removal.failed">

export const isTerminal = (r: Pick<CaptionRemovalRecord, "status">): boolean => r.status !== "processing"

/** Whether the removal has already started `step` (a resumed job skips recording it again). */
export const hasReachedRemovalStep = (r: Pick<CaptionRemovalRecord, "step">, step: RemovalStep): boolean =>
  REMOVAL_STEPS.indexOf(r.step) >= REMOVAL_STEPS.indexOf(step)

export type RemovalTransition = Either.Either<CaptionRemovalRecord, IllegalTransition>

const illegal = (r: CaptionRemovalRecord, e: RemovalEvent, reason: string): RemovalTransition =>
  Either.left(new IllegalTransition({ from: `${r.status}/${r.step}`, event: e._tag, reason }))

const isCredits = (n: number): boolean => Number.isInteger(n) && n >= 0

/** The state machine. Every event needs a removal still processing: `completed` and `failed` are final. */
export const applyRemovalEvent = (r: CaptionRemovalRecord, e: RemovalEvent): RemovalTransition => {
  if (isTerminal(r)) return illegal(r, e, `the removal is ${r.status}`)
  const touched = { ...r, updatedAt: e.at }
  switch (e._tag) {
    case "StepStarted": {
      if (e.step === "completed") return illegal(r, e, "completion happens through Completed")
      if (REMOVAL_STEPS.indexOf(e.step) < REMOVAL_STEPS.indexOf(r.step)) return illegal(r, e, "steps only move forward")
      return Either.right({ ...touched, step: e.step })
    }
    case "SourceStored":
      return Either.right({ ...touched, sourceFileId: e.fileId })
    case "SourceProbed":
      return Either.right({ ...touched, ...e.facts })
    case "Charged": {
      if (!isCredits(e.credits)) return illegal(r, e, "credits are a whole, non-negative number")
      return Either.right({ ...touched, creditsCharged: r.creditsCharged + e.credits })
    }
    case "Detected":
      return Either.right({ ...touched, regions: e.regions })
    case "Completed": {
      if (r.regions === null) return illegal(r, e, "the text has not been looked for yet")
      if (e.textRemainingShare !== null && !(e.textRemainingShare >= 0 && e.textRemainingShare <= 1)) {
        return illegal(r, e, "the share of frames with text left is between 0 and 1")
      }
      return Either.right({
        ...touched,
        status: "completed",
        step: "completed",
        resultFileId: e.resultFileId,
        textRemainingShare: e.textRemainingShare
      })
    }
    case "Failed": {
      if (!isCredits(e.refundedCredits)) return illegal(r, e, "credits are a whole, non-negative number")
      if (e.refundedCredits > r.creditsCharged) return illegal(r, e, "more credits refunded than were charged")
      return Either.right({
        ...touched,
        status: "failed",
        error: e.error,
        refunded: e.refundedCredits > 0,
        refundedCredits: e.refundedCredits
      })
    }
  }
}

/**
 * The state machine with what must follow it: a removal that ends announces it, once, whichever way it
 * ended (an ended removal takes no further event).
 */
export const removalTransition = announcingEnd(applyRemovalEvent, { completed: "caption_removal.completed", failed: "caption_removal.failed" })

/** A new caption removal, as the create operation records it. */
export const newCaptionRemoval = (input: {
  readonly id: string
  readonly workspaceId: string
  readonly source: { readonly url: string } | { readonly fileId: string }
  readonly webhookUrl: string | null
  readonly options: RemovalOptions
  readonly at: string
}): CaptionRemovalRecord => ({
  ...startedWork(input),
  resultFileId: null,
  options: input.options,
  durationSeconds: null,
  width: null,
  height: null,
  regions: null,
  textRemainingShare: null,
  creditsCharged: 0,
  refunded: false,
  refundedCredits: 0,
  error: null
})

/** The public caption removal object: what GET returns and webhooks carry. */
export const CaptionRemovalObject = Schema.Struct({
  id: RemovalId,
  status: RemovalStatus,
  step: RemovalStep,
  createdAt: Schema.String.annotations({ description: "ISO 8601 UTC timestamp with milliseconds." }),
  videoUrl: Schema.optional(Schema.String).annotations({
    description:
      "Unguessable link to the cleaned mp4; present once it exists. When no text was found it is the source unchanged. Works in a browser; supports Range."
  }),
  error: Schema.optional(Schema.String).annotations({ description: "Present on failure; says what went wrong." }),
  creditsCharged: Schema.Int.pipe(Schema.nonNegative()).annotations({
    description: "Credits charged so far: finding the text, then wiping it (nothing for wiping when none was found)."
  }),
  refunded: Schema.Boolean.annotations({ description: "Whether credits went back to the workspace because the work failed." }),
  refundedCredits: Schema.optional(Schema.Int.pipe(Schema.nonNegative())).annotations({
    description: "How many credits went back, when some did."
  }),
  regions: Schema.Array(TextRegion).annotations({
    description: "The burned-in text found and wiped; empty until detection ends, and when none was found."
  }),
  textRemainingShare: Schema.optional(Schema.Number.pipe(Schema.between(0, 1))).annotations({
    description: "Share of the frames sampled after removal on which text was still found, 0 to 1; present once checked."
  }),
  duration: Schema.optional(Schema.Number).annotations({ description: "Seconds, once known." }),
  width: Schema.optional(Schema.Int).annotations({ description: "Display width in pixels, once known." }),
  height: Schema.optional(Schema.Int).annotations({ description: "Display height in pixels, once known." })
}).annotations({
  identifier: "CaptionRemoval",
  description: "A video with its burned-in captions, watermarks or both wiped."
})
export type CaptionRemovalObject = typeof CaptionRemovalObject.Type

/** Turns the record into its public object; the link is built by the caller, who knows the base URL. */
export const presentRemoval = (r: CaptionRemovalRecord, videoUrl: string | null): CaptionRemovalObject => ({
  id: r.id,
  status: r.status,
  step: r.step,
  createdAt: r.createdAt,
  ...(videoUrl === null ? {} : { videoUrl }),
  ...(r.error === null ? {} : { error: r.error }),
  creditsCharged: r.creditsCharged,
  refunded: r.refunded,
  ...(r.refunded ? { refundedCredits: r.refundedCredits } : {}),
  regions: r.regions ?? [],
  ...(r.textRemainingShare === null ? {} : { textRemainingShare: r.textRemainingShare }),
  ...(r.durationSeconds === null ? {} : { duration: r.durationSeconds }),
  ...(r.width === null ? {} : { width: r.width }),
  ...(r.height === null ? {} : { height: r.height })
})
