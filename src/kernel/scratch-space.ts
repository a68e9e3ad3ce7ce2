// Where media work keeps its scratch files, so that what a killed process left behind can be found
// and removed without touching work still running. A job's scratch lies under `work/jobs/<job id>`:
// the job runner clears that folder when it claims the job (earlier claims died: the lease it now
// holds says nobody else runs it) and when the run ends. A starting worker clears the folders of jobs
// that are finished or unknown only: one still running may be another live worker's, and one whose
// claimer died is cleared by whoever claims it next. A request's scratch (uploads, speech) lies
// under `work/requests`; no lease tells whether its process lives, so a starting worker clears what
// is older than any request can run.
import { Clock, Effect, FiberRef, Option } from "effect"
import { readdir, rm, stat } from "node:fs/promises"
import { JobQueue } from "../../domain/ports/job-queue.ts"
import { ServiceConfig } from "./service-config.ts"
import { withSpan } from "./spans.ts"

/** The job the current fiber works for, set by the job runner; null outside jobs (a request). */
export const CurrentJobId = FiberRef.unsafeMake<string | null>(null)

const JOBS_FOLDER = "jobs"
const REQUESTS_FOLDER = "requests"
/** Far beyond the longest request (a 500 MB download is given 10 minutes). */
const STALE_REQUEST_SCRATCH_MS = 24 * 60 * 60 * 1000

/** Jobs of this process that asked for a scratch folder in their current run: only theirs need clearing when it ends. */
const jobsWithScratch = new Set<string>()

/** The folder under which the current job (or request) makes its scratch folders. */
export const scratchParent = Effect.gen(function*() {
  const { workDir } = yield* ServiceConfig
  const jobId = yield* FiberRef.get(CurrentJobId)
  if (jobId === null) return `${workDir}/${REQUESTS_FOLDER}`
  jobsWithScratch.add(jobId)
  return `${workDir}/${JOBS_FOLDER}/${jobId}`
})

const remove = (path: string) => Effect.promise(() => rm(path, { recursive: true, force: true }))

const entries = (dir: string) => Effect.promise(() => readdir(dir).catch(() => [] as Array<string>))

/** Removes the job's scratch folder, whatever earlier runs left in it. */
export const clearJobScratch = (jobId: string) =>
  Effect.flatMap(ServiceConfig, ({ workDir }) => remove(`${workDir}/${JOBS_FOLDER}/${jobId}`))

/** At the end of a run: removes the job's scratch folder if the run made one (most webhook deliveries make none). */
export const clearRunScratch = (jobId: string) =>
  Effect.suspend(() => (jobsWithScratch.delete(jobId) ? clearJobScratch(jobId) : Effect.void))

/**
 * At a worker's start: removes the scratch of jobs that are done, dead, cancelled or unknown (a store
 * that forgot them: the memory store after a restart), and request scratch older than a day. Also
 * what the layout before `jobs/` and `requests/` left directly in the work folder, by the same age.
 */
export const clearAbandonedScratch = Effect.gen(function*() {
  const { workDir } = yield* ServiceConfig
  const queue = yield* JobQueue
  const jobsDir = `${workDir}/${JOBS_FOLDER}`
  const cleared: Array<string> = []
  for (const jobId of yield* entries(jobsDir)) {
    const job = yield* queue.get(jobId)
    if (Option.isNone(job) || job.value.status === "done" || job.value.status === "dead" || job.value.status === "cancelled") {
      yield* remove(`${jobsDir}/${jobId}`)
      cleared.push(jobId)
    }
  }
  const now = yield* Clock.currentTimeMillis
  const requestsDir = `${workDir}/${REQUESTS_FOLDER}`
  const stale = [
    ...(yield* entries(requestsDir)).map((name) => `${requestsDir}/${name}`),
    ...(yield* entries(workDir)).filter((name) => name !== JOBS_FOLDER && name !== REQUESTS_FOLDER).map((name) => `${workDir}/${name}`)
  ]
  let staleCleared = 0
  for (const path of stale) {
    const modified = yield* Effect.promise(() => stat(path).then((s) => s.mtimeMs, () => null))
    if (modified !== null && now - modified > STALE_REQUEST_SCRATCH_MS) {
      yield* remove(path)
      staleCleared++
    }
  }
  yield* Effect.logInfo("abandoned scratch cleared").pipe(
    Effect.annotateLogs({ workDir, jobIds: cleared.join(","), jobs: cleared.length, requests: staleCleared })
  )
}).pipe(withSpan("clearAbandonedScratch"))
