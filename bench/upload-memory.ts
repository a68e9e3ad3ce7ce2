// How much memory the server needs to take a 500 MB multipart upload: the upload must stream to
// disk, so the server's resident set should grow by far less than the file (target <= 100 MB).
import { createReadStream } from "node:fs"
import { mkdtemp, rm, truncate, writeFile } from "node:fs/promises"
import { request } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pipeline } from "node:stream/promises"
import { setTimeout as sleep } from "node:timers/promises"
import { MAX_SOURCE_BYTES } from "../domain/rules.ts"
import { type Figure, isEntryPoint, report } from "./figures.ts"
import { liveMemoryOf } from "./process-memory.ts"
import { type ServiceProcess, startService } from "./service-process.ts"

const BENCH = "upload-memory"
/** Exactly the API's limit: the largest upload a user may send. */
const FILE_BYTES = MAX_SOURCE_BYTES
const SAMPLE_EVERY_MS = 50
const READ_CHUNK_BYTES = 1024 * 1024

/** Writing 5 to clear_refs resets VmHWM to the current RSS, so the peak covers the upload alone. */
const resetPeak = (pid: number): Promise<boolean> =>
  writeFile(`/proc/${pid}/clear_refs`, "5").then(() => true, () => false)

interface Upload {
  readonly status: number
  readonly body: string
  readonly seconds: number
}

/** One multipart `file` part streamed from disk with node:http; Content-Length is declared up front. */
const upload = (service: ServiceProcess, path: string, bytes: number): Promise<Upload> => {
  const boundary = `----bench${Math.random().toString(36).slice(2)}`
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="zeros.mp4"\r\nContent-Type: video/mp4\r\n\r\n`
  )
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`)
  const url = new URL("/v1/caption-videos", service.baseUrl)
  const started = performance.now()
  return new Promise((done, fail) => {
    const req = request(url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${service.token}`,
        "content-type": `multipart/form-data; boundary=${boundary}`,
        "content-length": String(head.length + bytes + tail.length)
      }
    })
    req.once("response", (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (c: Buffer) => chunks.push(c))
      res.once("end", () =>
        done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8"), seconds: (performance.now() - started) / 1000 }))
      res.once("error", fail)
    })
    req.once("error", fail)
    const body = async function*() {
      yield head
      yield* createReadStream(path, { highWaterMark: READ_CHUNK_BYTES })
      yield tail
    }
    // A server that answers early (an error) may close the socket mid-body; the response says why.
    pipeline(body, req).catch(() => undefined)
  })
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
    const warm = await upload(service, warmFile, 64 * 1024)
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
    const result = await upload(service, file, FILE_BYTES).finally(() => clearInterval(sampler))
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
