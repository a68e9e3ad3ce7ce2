// The caption removal's work: fetch and store the source, probe it, find the burned-in text on
// sampled frames and track it into regions, wipe them in one encode, then look again at the wiped
// picture and record the share of frames where text remains. The wipe keeps the frames that look needs
// as they go to the encoder, so the result is never decoded again: only the strips where text was
// wiped (domain/removal-check.ts), when they hold less than half the picture. Each step is recorded in
// the removal's `step`; each is safe to run again when a crashed job is retried (charges are posted once).
import { Effect, Option } from "effect"
import { isTerminal } from "../../../domain/caption-removal.ts"
import { WorkFailed } from "../../../domain/errors.ts"
import { CaptionRemovalStore } from "../../../domain/ports/caption-removal-store.ts"
import { MediaEngine } from "../../../domain/ports/media-engine.ts"
import { TextDetector } from "../../../domain/ports/text-detector.ts"
import { WorkspaceStore } from "../../../domain/ports/workspace-store.ts"
import { removalAnalysisCredits, removalWipeCredits } from "../../../domain/pricing.ts"
import { checkSourceLimits } from "../../../domain/rules.ts"
import { checkStrips, fromStrips, sampledSize, textRemainingShare } from "../../../domain/removal-check.ts"
import { trackRegions } from "../../../domain/text-regions.ts"
import { Done, handle } from "../../kernel/job.ts"
import { RemoveCaptions } from "../../kernel/job-catalogue.ts"
import { removalWork } from "../../kernel/removal-work.ts"
import { downloadSource } from "../../shared/media/download-source.ts"
import { localFile, withScratchDir } from "../../shared/media/scratch.ts"
import { storeFile } from "../../shared/media/store-file.ts"
import { chargeRemoval } from "./parts/charge-removal.ts"

/** Frames looked at per second to find text, and the detector's confidence a box needs to count. */
const FIND_SAMPLES_PER_SECOND = 2
const FIND_MIN_SCORE = 0.8
/** The check after removal looks harder (a lower threshold) at fewer frames. */
const CHECK_SAMPLES_PER_SECOND = 1
const CHECK_MIN_SCORE = 0.5

export const runCaptionRemoval = (removalId: string) =>
  withScratchDir(`removal-${removalId}`, (dir) =>
    Effect.gen(function*() {
      const store = yield* CaptionRemovalStore
      const load = store.getById(removalId).pipe(Effect.map(Option.getOrThrow))
      const initial = yield* load
      if (isTerminal(initial)) return
      yield* removalWork.step(initial, "fetching_source", Effect.gen(function*() {
        if (initial.sourceFileId !== null || initial.sourceUrl === null) return
        const file = yield* downloadSource(initial.workspaceId, initial.sourceUrl, dir)
        yield* removalWork.apply(removalId, (at) => ({ _tag: "SourceStored", fileId: file.id, at }))
      }))
      const removal = yield* load
      if (removal.sourceFileId === null) return yield* Effect.dieMessage(`caption removal ${removalId} has no source`)
      const source = yield* localFile(removal.sourceFileId, `${dir}/source`)
      const media = yield* MediaEngine
      const facts = yield* removalWork.step(initial, "probing", media.probe(source))
      const verdict = checkSourceLimits(facts)
      if (!verdict.ok) return yield* new WorkFailed({ message: verdict.reason })
      yield* removalWork.apply(removalId, (at) => ({
        _tag: "SourceProbed",
        facts: { durationSeconds: facts.durationSeconds, width: facts.width, height: facts.height },
        at
      }))
      const detector = yield* TextDetector
      const scan = (input: string, samplesPerSecond: number, minScore: number) =>
        detector.scan({ input, width: facts.width, height: facts.height, durationSeconds: facts.durationSeconds, samplesPerSecond, minScore })
      const regions = yield* removalWork.step(initial, "detecting", Effect.gen(function*() {
        yield* chargeRemoval(removalId, "analysis", removalAnalysisCredits(facts.durationSeconds) - removalAnalysisCredits(1))
        const samples = yield* scan(source, FIND_SAMPLES_PER_SECOND, FIND_MIN_SCORE)
        const found = trackRegions(samples, {
          samplesPerSecond: FIND_SAMPLES_PER_SECOND,
          durationSeconds: facts.durationSeconds,
          width: facts.width,
          height: facts.height,
          target: removal.options.target,
          region: removal.options.region
        })
        yield* removalWork.apply(removalId, (at) => ({ _tag: "Detected", regions: found, at }))
        return found
      }))
      if (regions.length === 0) {
        // Nothing to wipe: the result is the source itself, and only the analysis is paid.
        yield* removalWork.apply(removalId, (at) => ({ _tag: "Completed", resultFileId: removal.sourceFileId!, textRemainingShare: null, at }))
        return
      }
      const output = `${dir}/clean.mp4`
      const checkFrames = `${dir}/check-frames.nut`
      // The check looks only where text was wiped, at the scale the detection looked at the whole picture.
      const whole = detector.frameSize(facts.width, facts.height)
      const stack = checkStrips(regions.map((r) => r.box), facts.width, facts.height)
      const scale = whole.width / facts.width
      const sampled = stack === null ? whole : sampledSize(stack, scale)
      yield* removalWork.step(initial, "removing", Effect.gen(function*() {
        yield* chargeRemoval(removalId, "wipe", removalWipeCredits(facts.durationSeconds))
        yield* media.wipeRegions({
          input: source,
          output,
          regions,
          samples: { output: checkFrames, perSecond: CHECK_SAMPLES_PER_SECOND, ...sampled, ...(stack === null ? {} : { strips: stack }) }
        })
      }))
      const share = yield* removalWork.step(
        initial,
        "checking",
        Effect.map(
          stack === null
            ? scan(checkFrames, CHECK_SAMPLES_PER_SECOND, CHECK_MIN_SCORE)
            // Frames already at the detector's scale: looked at as they are, their boxes put back in the picture.
            : Effect.map(
              detector.scan({ ...sampled, input: checkFrames, durationSeconds: facts.durationSeconds, samplesPerSecond: CHECK_SAMPLES_PER_SECOND, minScore: CHECK_MIN_SCORE }),
              (samples) => samples.map((sample) => ({ ...sample, boxes: sample.boxes.flatMap((box) => fromStrips(stack, sampled, box) ?? []) }))
            ),
          (samples) => textRemainingShare(samples, regions)
        )
      )
      const workspace = yield* (yield* WorkspaceStore).get(removal.workspaceId).pipe(Effect.map(Option.getOrThrow))
      const file = yield* storeFile(workspace, { path: output, name: "captions-removed.mp4", contentType: "video/mp4" })
      yield* removalWork.apply(removalId, (at) => ({ _tag: "Completed", resultFileId: file.id, textRemainingShare: share, at }))
    }))

export const runCaptionRemovalJob = handle(RemoveCaptions, {
  run: ({ removalId }) =>
    runCaptionRemoval(removalId).pipe(Effect.catchTag("WorkFailed", (failure) => removalWork.fail(removalId, failure)), Effect.as(Done)),
  onDead: ({ removalId }, error) =>
    removalWork.fail(removalId, new WorkFailed({ message: `The caption removal stopped after repeated internal errors (${error.slice(0, 200)}). Its credits were refunded; try again.` }))
})
