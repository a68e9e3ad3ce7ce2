// How much memory the server needs to take a 500 MB multipart upload: the upload must stream to
// disk, so the server's resident set should grow by far less than the file (target <= 100 MB).
import { mkdtemp, rm, truncate, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { MAX_SOURCE_BYTES } from "../domain/rules.ts"
import { type Figure, isEntryPoint, report } from "./figures.ts"
import { postForm } from "./post-form.ts"
import { liveMemoryOf } from "./process-memory.ts"
import { type ServiceProcess, startService } from "./service-process.ts"

const BENCH = "upload-memory"
/** Exactly the API's limit: the largest upload a user may send. */
const FILE_BYTES = MAX_SOURCE_BYTES
const SAMPLE_EVERY_MS = 50

/** Writing 5 to clear_refs resets VmHWM to the current RSS, so the peak covers the upload alone. */
const resetPeak = (pid: number): Promise<boolean> =>
  writeFile(`/proc/${pid}/clear_refs`, "5").then(() => true, () => false)

/** The upload's answer and how long it took. */
const upload = async (service: ServiceProcess, path: string) => {
  const started = performance.now()
  const answer = await postForm(new URL("/v1/caption-videos", service.baseUrl).href, { authorization: `Bearer ${service.token}` }, { path, contentType: "video/mp4" })
  return { ...answer, seconds: (performance.now() - started) / 1000 }
}

/** Decimal megabytes, the unit of the 500 MB limit and of the 100 MB target. */
const toMb = (bytes: number): number => bytes / 1e6

export const uploadMemory = async (): Promise<ReadonlyArray<Figure>> => {
  const dir = await mkdtemp(join(tmpdir(), "bench-upload-memory-"))
  const service = await startService()
  try {
    const file = join(dir, "zeros.mp4")
    await writeFile(file, "")
    await truncate(file, FILE_BYTES)
    // Warm-up: a small authenticated multipart upload loads and compiles every code path the big one takes.
    const warmFile = join(dir, "warm.mp4")
    await writeFile(warmFile, Buffer.alloc(64 * 1024))
    const warm = await upload(service, warmFile)
    console.log(`${BENCH}: warm-up upload answered ${warm.status}`)
    await sleep(1_000)
    const before = await liveMemoryOf(service.pid)
    const peakReset = await resetPeak(service.pid)
    const baseline = peakReset ? await liveMemoryOf(service.pid) : before
    console.log(`${BENCH}: server pid ${service.pid}, RSS before ${toMb(baseline.rss).toFixed(1)} MB; uploading ${toMb(FILE_BYTES)} MB`)

    let sampledPeak = baseline.rss
    let samples = 0
    const sampler = setInterval(() => {
      liveMemoryOf(service.pid).then((m) => {
        samples++
        sampledPeak = Math.max(sampledPeak, m.rss)
      }, () => undefined)
    }, SAMPLE_EVERY_MS)
    const result = await upload(service, file).finally(() => clearInterval(sampler))
    const after = await liveMemoryOf(service.pid)
    // VmHWM catches a peak between two samples; without the reset it may predate the upload.
    const peak = peakReset ? Math.max(sampledPeak, after.hwm) : Math.max(sampledPeak, after.hwm > before.hwm ? after.hwm : 0)
    console.log(`${BENCH}: answered ${result.status} after ${result.seconds.toFixed(2)} s: ${result.body.slice(0, 200)}`)
    return [
      { bench: BENCH, name: "RSS before upload", value: toMb(baseline.rss), unit: "MB" },
      {
        bench: BENCH,
        name: "peak RSS growth during upload",
        value: toMb(peak - baseline.rss),
        unit: "MB",
        target: { atMost: 100 },
        note: `${samples} samples; VmHWM ${peakReset ? "reset before" : "not resettable"}`
      },
      { bench: BENCH, name: "RSS after response", value: toMb(after.rss), unit: "MB" },
      {
        bench: BENCH,
        name: "upload throughput",
        value: toMb(FILE_BYTES) / result.seconds,
        unit: "MB/s",
        note: `${toMb(FILE_BYTES)} MB in ${result.seconds.toFixed(2)} s`
      },
      {
        bench: BENCH,
        name: "upload response status",
        value: result.status,
        unit: "HTTP",
        note: /"(?:status|code)":"([^"]+)"/.exec(result.body)?.[1] ?? result.body.slice(0, 60)
      }
    ]
  } finally {
    await service.stop()
    await rm(dir, { recursive: true, force: true })
  }
}

if (isEntryPoint(import.meta.url)) await report(await uploadMemory())
