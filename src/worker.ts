// The background worker: every job kind and its handler.
import { generateVideoJob } from "./ops/generated-video/generate-video.job.ts"
import { generateCaptionsJob } from "./ops/caption-video/generate-captions.job.ts"
import { renderEditorPictureJob } from "./ops/render/render-editor-picture.job.ts"
import { renderJob } from "./ops/render/render-video.job.ts"
import { deliverWebhookJob } from "./ops/webhooks/deliver-webhook.job.ts"
import { grantMonthlyCreditsJob } from "./ops/plans/grant-monthly-credits.job.ts"
import { runCaptionRemovalJob } from "./ops/caption-removal/remove-captions.job.ts"
import { makeClipsJob } from "./ops/clips/make-clips.job.ts"
import { DEFAULT_FILE_SWEEP_INTERVAL_MS, sweepExpiredFilesJob } from "./ops/files/sweep-expired-files.job.ts"
import { sweepOAuthJob } from "./ops/oauth/sweep-oauth.job.ts"
import type { JobHandler } from "./kernel/job.ts"
import { makeJobRunner } from "./kernel/job-runner.ts"

const handlers = [generateCaptionsJob, generateVideoJob, renderJob, renderEditorPictureJob, runCaptionRemovalJob, makeClipsJob, deliverWebhookJob, grantMonthlyCreditsJob, sweepOAuthJob] as const

type ServicesOf<H> = H extends JobHandler<infer R> ? R : never
export type WorkerServices = ServicesOf<(typeof handlers)[number] | ReturnType<typeof sweepExpiredFilesJob>>

/** One handler for each job of the catalogue (src/kernel/job-catalogue.ts; a test holds the two together). */
export const jobHandlers = (options: { readonly fileSweepIntervalMs?: number } = {}): ReadonlyArray<JobHandler<WorkerServices>> => [
  ...handlers,
  sweepExpiredFilesJob(options.fileSweepIntervalMs ?? DEFAULT_FILE_SWEEP_INTERVAL_MS)
]

export const makeWorker = (options: { readonly leaseMs?: number; readonly fileSweepIntervalMs?: number } = {}) =>
  makeJobRunner<WorkerServices>(jobHandlers(options), options)

export const worker = makeWorker()
