// A 60 s AI video and a 60 s gameplay video, 1080x1920 at 30 fps, through the real service (POST with
// `render` until GET /v1/videos/:id says completed), each against a plain ffmpeg encode of one still
// image of the same length with the same encoder settings. Target: each ready in <= 45 s on 2 cores.
import { execFile } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { promisify } from "node:util"
import { x264Args } from "../adapters/media/ffmpeg-engine.ts"
import { SCRIPT, stepTimings } from "./caption-render.ts"
import { type Figure, isEntryPoint, report } from "./figures.ts"
import { type ServiceProcess, startService } from "./service-process.ts"

const run = promisify(execFile)

const BENCH = "generated-video"
const TIMEOUT_MS = 8 * 60_000
const TARGET_SECONDS = 45

interface VideoObject {
  readonly id: string
  readonly status: string
  readonly step: string
  readonly duration?: number
  readonly error?: string
}

const createAndWait = async (service: ServiceProcess, path: string): Promise<{ seconds: number; video: VideoObject }> => {
  const headers = { authorization: `Bearer ${service.token}`, "content-type": "application/json" }
  const started = performance.now()
  const created = await fetch(`${service.baseUrl}${path}`, { method: "POST", headers, body: JSON.stringify({ script: SCRIPT, render: {} }) })
  const body = await created.text()
  if (!created.ok) throw new Error(`POST ${path} answered ${created.status}: ${body.slice(0, 500)}`)
  const { id } = JSON.parse(body) as VideoObject
  let lastStep = ""
  for (;;) {
    const video = (await (await fetch(`${service.baseUrl}/v1/videos/${id}`, { headers })).json()) as VideoObject
    if (video.step !== lastStep) {
      lastStep = video.step
      process.stdout.write(`\r${BENCH}: ${path} ${((performance.now() - started) / 1000).toFixed(1)} s, step ${video.step}            `)
    }
    if (video.status === "completed") {
      process.stdout.write("\n")
      return { seconds: (performance.now() - started) / 1000, video }
    }
    if (video.status === "failed") throw new Error(`the video failed at ${video.step}: ${video.error}`)
    if (performance.now() - started > TIMEOUT_MS) throw new Error(`not completed after ${TIMEOUT_MS / 1000} s (step ${video.step})`)
    await sleep(200)
  }
}

/** The baseline: one still picture held for the same length, same size, rate and encoder, silent AAC. */
const encodeStill = async (dir: string, seconds: number): Promise<number> => {
  const still = join(dir, "still.png")
  await run("ffmpeg", ["-nostdin", "-y", "-v", "error", "-f", "lavfi", "-i", "testsrc2=s=1080x1920", "-frames:v", "1", still])
  const started = performance.now()
  await run("ffmpeg", [
    "-nostdin", "-y", "-v", "error",
    "-loop", "1", "-framerate", "30", "-i", still,
    "-f", "lavfi", "-i", "anullsrc=r=44100:cl=mono",
    "-t", seconds.toFixed(3), "-r", "30",
    ...x264Args(), "-c:a", "aac", "-b:a", "128k", "-movflags", "+faststart",
    join(dir, "still.mp4")
  ])
  return (performance.now() - started) / 1000
}

const KINDS = [
  { name: "AI video", path: "/v1/ai-videos" },
  { name: "gameplay video", path: "/v1/gameplay-videos" }
] as const

export const generatedVideo = async (): Promise<ReadonlyArray<Figure>> => {
  const dir = await mkdtemp(join(tmpdir(), "reelwright-bench-generated-"))
  try {
    const figures: Array<Figure> = []
    for (const kind of KINDS) {
      const service = await startService()
      let result: { seconds: number; video: VideoObject }
      let steps: ReadonlyArray<{ name: string; seconds: number }>
      try {
        result = await createAndWait(service, kind.path)
        steps = stepTimings(service.log(), result.video.id)
      } finally {
        await service.stop()
      }
      const length = result.video.duration ?? 0
      const baseline = await encodeStill(dir, length)
      figures.push(
        { bench: BENCH, name: `${kind.name}: length`, value: length, unit: "s" },
        { bench: BENCH, name: `${kind.name}: create to completed`, value: result.seconds, unit: "s", target: { atMost: TARGET_SECONDS } },
        { bench: BENCH, name: `${kind.name}: real-time factor`, value: length / result.seconds, unit: "x" },
        ...steps.map((s) => ({ bench: BENCH, name: `  ${s.name}`, value: s.seconds, unit: "s" })),
        { bench: BENCH, name: `${kind.name}: plain ffmpeg still encode`, value: baseline, unit: "s" },
        { bench: BENCH, name: `${kind.name}: ours / plain still encode`, value: result.seconds / baseline, unit: "x" }
      )
    }
    return figures
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

if (isEntryPoint(import.meta.url)) await report(await generatedVideo())
