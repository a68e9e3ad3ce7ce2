// One step of a video's pipeline, shared by every kind of video.
import { Effect } from "effect"
import { hasReachedStep, type Step, type VideoRecord } from "../../domain/video.ts"
import { applyVideoEvent } from "./video-events.ts"

/**
 * Records the step (unless a crashed run already got that far: the retried job redoes the work but
 * the step never moves back), runs it, and logs how long it took.
 */
export const step = <A, E, R>(video: VideoRecord, name: Step, work: Effect.Effect<A, E, R>) =>
  (hasReachedStep(video, name)
    ? Effect.void
    : Effect.asVoid(applyVideoEvent(video.id, (at) => ({ _tag: "StepStarted", step: name, at })))).pipe(
    Effect.zipRight(work),
    Effect.timed,
    Effect.tap(([duration]) =>
      Effect.logInfo(`step ${name} done`).pipe(Effect.annotateLogs({ videoId: video.id, step: name, duration }))
    ),
    Effect.map(([, a]) => a),
    Effect.withSpan(`step.${name}`, { attributes: { videoId: video.id } })
  )
