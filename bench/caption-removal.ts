// What a caption removal costs over a plain re-encode, on a 60 s 1080x1920 30 fps clip with a caption
// that changes every 2 s and a static watermark, over a moving gradient with grain.
//   (a) plain ffmpeg re-encode of the clip: the removal's output settings (same x264 settings, audio
//       copied, every frame kept, faststart), no filter
//   (b) the real service: POST /v1/caption-remover (multipart) until GET /v1/caption-remover/:id says
//       completed: upload, probe, detection, wipe, check, store
// Also reported: the steps' times from the service's log, what was found, the share of checked frames
// where text remains, and PSNR against the same clip made without text (inside the wiped regions) and
// against the source (outside them, beside the plain re-encode's own loss there). BENCH_RUNS=n runs (a) max(2, n) times and (b) n times (default 1).
import { execFile } from "node:child_process"
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { promisify } from "node:util"
import { x264Args } from "../adapters/media/ffmpeg-engine.ts"
import { psnr, readFrame, within } from "../test/support/clips.ts"
import { SCRIPT, stepTimings } from "./caption-render.ts"
import { type Figure, isEntryPoint, median, report } from "./figures.ts"
import { postForm } from "./post-form.ts"
import { type ServiceProcess, startService } from "./service-process.ts"

const run = promisify(execFile)

const BENCH = "caption-removal"
const WIDTH = 1080
const HEIGHT = 1920
const FPS = 30
const SECONDS = 60
const CAPTION_SECONDS = 2
const TIMEOUT_MS = 8 * 60_000
/** Frames compared against the clean clip: one inside each of a few caption spans. */
const QUALITY_TIMES = [1, 17, 33, 49]

const seconds = (ms: number): number => ms / 1000

/** One caption per 2 s: the benchmark script's words, four at a time, in capitals as short-form captions are. */
const captions = (): ReadonlyArray<string> => {
  const words = SCRIPT.toUpperCase().replace(/[^A-Z ]/g, "").split(/\s+/)
  return Array.from({ length: SECONDS / CAPTION_SECONDS }, (_, i) => words.slice(i * 4, i * 4 + 4).join(" "))
}

/** The clip with its burned-in text and the same clip clean, from one run (not timed). */
const makeClips = async (dir: string) => {
  const texted = join(dir, "clip.mp4")
  const clean = join(dir, "clean.mp4")
  const burned = captions().map((text, i) =>
    `drawtext=font='DejaVu Sans':fontsize=76:fontcolor=white:borderw=6:bordercolor=black:text='${text}':` +
    `x=(w-text_w)/2:y=h*0.74:enable='between(t,${i * CAPTION_SECONDS},${(i + 1) * CAPTION_SECONDS})'`
  )
  const watermark = "drawtext=font='DejaVu Sans':fontsize=46:fontcolor=white@0.85:text='@reelwright':x=48:y=96"
  const graph = join(dir, "graph.txt")
  // The gradient is drawn small and scaled up (the same picture, far faster); a still grain over it gives
  // texture. Colours, line and grain are fixed (ffmpeg 5.1's gradients ignores its seed), so that every
  // run gets the same clip and PSNRs compare across runs.
  await writeFile(
    graph,
    `gradients=s=270x480:r=${FPS}:speed=0.03:n=4:c0=0x3050a0:c1=0xe0a060:c2=0x40a070:c3=0xa04080:x0=30:y0=60:x1=240:y1=420,scale=${WIDTH}:${HEIGHT},noise=alls=6:all_seed=7,format=yuv420p,split[a][b];` +
      `[a]${[...burned, watermark].join(",")}[texted];[b]null[clean]`
  )
  const encode = ["-c:v", "libx264", "-preset", "ultrafast", "-crf", "20", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "128k"]
  await run("ffmpeg", [
    "-nostdin", "-y", "-v", "error",
    "-filter_complex_script", graph,
    "-f", "lavfi", "-i", `sine=frequency=330:sample_rate=48000`,
    "-map", "[texted]", "-map", "0:a", "-t", String(SECONDS), ...encode, texted,
    "-map", "[clean]", "-map", "0:a", "-t", String(SECONDS), ...encode, clean
  ])
  return { texted, clean }
}

/** The removal's output settings without its filter. */
const plainEncode = (input: string, output: string) =>
  run("ffmpeg", [
    "-nostdin", "-y", "-hide_banner", "-v", "error",
    "-i", input,
    "-map", "0:v:0", "-map", "0:a?", "-fps_mode", "passthrough",
    ...x264Args(process.env["X264_PRESET"]), "-c:a", "copy",
    "-movflags", "+faststart",
    output
  ])

interface Region {
  readonly kind: string
  readonly box: { readonly x: number; readonly y: number; readonly width: number; readonly height: number }
  readonly startSeconds: number
  readonly endSeconds: number
}

interface RemovalObject {
  readonly id: string
  readonly status: string
  readonly step: string
  readonly error?: string
  readonly videoUrl?: string
  readonly creditsCharged: number
  readonly regions: ReadonlyArray<Region>
  readonly textRemainingShare?: number
}

const removeCaptions = async (service: ServiceProcess, path: string) => {
  const auth = { authorization: `Bearer ${service.token}` }
  const started = performance.now()
  const created = await postForm(`${service.baseUrl}/v1/caption-remover`, auth, { path, contentType: "video/mp4" })
  const uploadSeconds = seconds(performance.now() - started)
  const { body } = created
  if (!created.ok) throw new Error(`POST /v1/caption-remover answered ${created.status}: ${body.slice(0, 500)}`)
  const { id } = JSON.parse(body) as RemovalObject
  let lastStep = ""
  for (;;) {
    const removal = (await (await fetch(`${service.baseUrl}/v1/caption-remover/${id}`, { headers: auth })).json()) as RemovalObject
    if (removal.step !== lastStep) {
      lastStep = removal.step
      process.stdout.write(`\r${BENCH}: ${seconds(performance.now() - started).toFixed(1)} s, step ${removal.step}            `)
    }
    if (removal.status === "completed") {
      process.stdout.write("\n")
      return { totalSeconds: seconds(performance.now() - started), uploadSeconds, removal }
    }
    if (removal.status === "failed") throw new Error(`the removal failed at ${removal.step}: ${removal.error}`)
    if (performance.now() - started > TIMEOUT_MS) throw new Error(`not completed after ${TIMEOUT_MS / 1000} s (step ${removal.step})`)
    await sleep(200)
  }
}

/** The lowest PSNR inside the regions present (against the clean clip) and outside all regions (against the source). */
const quality = async (clips: { texted: string; clean: string }, cleaned: string, regions: ReadonlyArray<Region>) => {
  let inside = Infinity
  let outside = Infinity
  const outsideAll = (x: number, y: number) => !regions.some((r) => within(r.box)(x, y))
  for (const t of QUALITY_TIMES) {
    const [out, clean, source] = await Promise.all([
      readFrame(cleaned, t, WIDTH, HEIGHT),
      readFrame(clips.clean, t, WIDTH, HEIGHT),
      readFrame(clips.texted, t, WIDTH, HEIGHT)
    ])
    for (const region of regions.filter((r) => t >= r.startSeconds && t <= r.endSeconds)) {
      inside = Math.min(inside, psnr(out, clean, within(region.box)))
    }
    outside = Math.min(outside, psnr(out, source, outsideAll))
  }
  return { inside, outside }
}

export const captionRemoval = async (): Promise<ReadonlyArray<Figure>> => {
  const requested = Number(process.env["BENCH_RUNS"] ?? "")
  const runs = Number.isInteger(requested) && requested > 0 ? requested : 1
  const encodeRuns = Math.max(2, runs)
  const dir = await mkdtemp(join(tmpdir(), "bench-caption-removal-"))
  try {
    console.log(`${BENCH}: making the ${SECONDS} s ${WIDTH}x${HEIGHT} ${FPS} fps clip with captions and a watermark, and its clean twin (not timed)`)
    const clips = await makeClips(dir)
    const plain: Array<number> = []
    // The last plain re-encode is kept: its loss outside the regions is what any re-encode costs.
    const plainOutput = join(dir, "plain.mp4")
    for (let i = 1; i <= encodeRuns; i++) {
      const started = performance.now()
      await plainEncode(clips.texted, plainOutput)
      plain.push(seconds(performance.now() - started))
      console.log(`${BENCH}: run ${i}/${encodeRuns}  (a) plain re-encode ${plain.at(-1)!.toFixed(2)} s`)
    }
    const a = median(plain)
    const figures: Array<Figure> = [
      { bench: BENCH, name: "(a) plain re-encode, same settings", value: a, unit: "s", note: `median of ${encodeRuns}` }
    ]
    const jobTimes: Array<number> = []
    const details: Array<Figure> = []
    const service = await startService()
    try {
      for (let i = 1; i <= runs; i++) {
        const result = await removeCaptions(service, clips.texted).then((r) => r, (e: unknown) => (e instanceof Error ? e : new Error(String(e))))
        if (result instanceof Error) {
          console.log(`${BENCH}: run ${i}/${runs}  (b) removal FAILED: ${result.message}`)
          details.push({ bench: BENCH, name: `(b) run ${i}`, value: null, unit: "s", note: result.message.slice(0, 120) })
          continue
        }
        jobTimes.push(result.totalSeconds)
        console.log(`${BENCH}: run ${i}/${runs}  (b) caption removal ${result.totalSeconds.toFixed(2)} s`)
        if (i > 1) continue
        const { removal } = result
        const steps = stepTimings(service.log(), removal.id)
        const detecting = steps.find((s) => s.name === "removal step detecting")?.seconds
        const removing = steps.find((s) => s.name === "removal step removing")?.seconds
        const count = (kind: string) => removal.regions.filter((r) => r.kind === kind).length
        const cleaned = join(dir, "cleaned.mp4")
        await writeFile(cleaned, Buffer.from(await (await fetch(removal.videoUrl!)).arrayBuffer()))
        const psnrs = await quality(clips, cleaned, removal.regions)
        const plainPsnrs = await quality(clips, plainOutput, removal.regions)
        details.push(
          { bench: BENCH, name: "(b) upload (POST answered)", value: result.uploadSeconds, unit: "s" },
          ...steps.map((s) => ({ bench: BENCH, name: `(b) ${s.name}`, value: s.seconds, unit: "s" })),
          {
            bench: BENCH,
            name: "detection per sampled frame",
            value: detecting === undefined ? null : (detecting * 1000) / (SECONDS * 2),
            unit: "ms",
            note: "2 samples a second"
          },
          { bench: BENCH, name: "removal step / plain re-encode", value: removing === undefined ? null : removing / a, unit: "x" },
          {
            bench: BENCH,
            name: "regions found",
            value: removal.regions.length,
            unit: "regions",
            note: `${count("caption")} caption, ${count("watermark")} watermark; ${SECONDS / CAPTION_SECONDS} captions and 1 watermark drawn`
          },
          { bench: BENCH, name: "checked frames with text left", value: (removal.textRemainingShare ?? 0) * 100, unit: "%", target: { atMost: 5 } },
          { bench: BENCH, name: "PSNR in wiped regions vs clean clip", value: psnrs.inside, unit: "dB", note: `lowest at t=${QUALITY_TIMES.join(",")} s` },
          { bench: BENCH, name: "PSNR outside wiped regions vs source", value: psnrs.outside, unit: "dB", note: `lowest at t=${QUALITY_TIMES.join(",")} s` },
          { bench: BENCH, name: "  same for the plain re-encode (a)", value: plainPsnrs.outside, unit: "dB", note: "the loss any re-encode has" },
          { bench: BENCH, name: "credits charged", value: removal.creditsCharged, unit: "credits" }
        )
      }
    } finally {
      await service.stop()
    }
    const b = jobTimes.length > 0 ? median(jobTimes) : null
    figures.push(
      { bench: BENCH, name: "(b) caption removal, POST to completed", value: b, unit: "s", note: runs > 1 ? `median of ${jobTimes.length}` : "1 run" },
      { bench: BENCH, name: "b/a", value: b === null ? null : b / a, unit: "x", target: { atMost: 1.5 } },
      ...details
    )
    return figures
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

if (isEntryPoint(import.meta.url)) await report(await captionRemoval())
