// How much the caption render costs over a plain re-encode with the same encoder settings, and how
// long the whole pipeline over HTTP takes, on a 60 s 1080x1920 30 fps spoken clip.
//   (a) plain ffmpeg re-encode: the render's picture chain without the ass filter, same x264/aac/faststart
//   (b) MediaEngine.burnCaptions from FfmpegEngineLive, what the render job runs
//   (c) the real service: POST /v1/caption-videos (multipart) until GET /v1/videos/:id says completed
//   (d) burnCaptions with the plainest built-in template and with the richest ones (animations, glow, shadow, boxes)
//   (e) burnCaptions with an emoji beside every line, against the same captions without
// BENCH_RUNS=n runs (a) and (b) max(2, n) times each, alternating, and (c) n times (default 1).
// Beside (a) and (c), the CPU time each took (the service's with the ffmpeg and recogniser runs it waited for),
// and what c/a would be were every core busy throughout (c): the least this machine allows.
import { execFile } from "node:child_process"
import { mkdtemp, rm, stat } from "node:fs/promises"
import { availableParallelism, tmpdir } from "node:os"
import { join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { promisify } from "node:util"
import { Effect } from "effect"
import { FfmpegEngineLive, x264Args } from "../adapters/media/ffmpeg-engine.ts"
import { BUILT_IN_TEMPLATES, type CaptionPage, type CaptionStyle, DEFAULT_TEMPLATE_ID, layoutCaptions, layoutRulesOf } from "../domain/captions.ts"
import { MediaEngine } from "../domain/ports/media-engine.ts"
import { speak } from "../test/support/festival.ts"
import { type Figure, isEntryPoint, median, report } from "./figures.ts"
import { postForm } from "./post-form.ts"
import { withCpuOf } from "./process-cpu.ts"
import { type ServiceProcess, startService } from "./service-process.ts"

const run = promisify(execFile)

const BENCH = "caption-render"
const WIDTH = 1080
const HEIGHT = 1920
const FPS = 30
const SECONDS = 60
const PIPELINE_TIMEOUT_MS = 8 * 60_000
const PLAINEST_TEMPLATE = -3
const RICH_TEMPLATES = [-24, -8, -10, -17] as const

export const SCRIPT = [
  "Every morning the harbour wakes before the town does. Fishing boats slide out past the breakwater while the gulls",
  "argue over the last scraps of yesterday. By the time the bakery opens, the first crates of fish are already stacked on",
  "the quay, and the market fills with voices, prices and the smell of salt. Visitors often ask why anyone would choose",
  "such an early life. The answer is simple: the sea decides the hours, not the people. When the tide turns, everything",
  "turns with it. Later in the day the light softens, children run along the sea wall, and the older fishermen mend their",
  "nets in the shade. Nobody hurries. Stories are traded as freely as bait, and most of them grow a little taller each",
  "time they are told. In the evening the boats come home, the lamps come on, and the harbour settles into a quiet rhythm",
  "that has lasted for centuries."
].join(" ")

export interface Clip {
  readonly path: string
  readonly bytes: number
  readonly pages: ReadonlyArray<CaptionPage>
  readonly style: CaptionStyle
  readonly words: number
}

const seconds = (ms: number): number => ms / 1000

const timed = async (work: () => Promise<unknown>): Promise<number> => {
  const started = performance.now()
  await work()
  return seconds(performance.now() - started)
}

/** Festival speech padded with silence to `length` s (60 unless told) over a moving test picture, made fast (not timed). */
export const makeClip = async (dir: string, length = SECONDS): Promise<Clip> => {
  const speech = await speak(SCRIPT, dir)
  const path = join(dir, "clip.mp4")
  await run("ffmpeg", [
    "-nostdin", "-y", "-v", "error",
    "-f", "lavfi", "-i", `testsrc2=s=${WIDTH}x${HEIGHT}:r=${FPS}`,
    "-i", speech.wavPath,
    "-filter_complex", "[1:a]apad[a]",
    "-map", "0:v", "-map", "[a]", "-t", String(length),
    "-c:v", "libx264", "-preset", "ultrafast", "-crf", "20", "-pix_fmt", "yuv420p",
    "-c:a", "aac", "-b:a", "128k",
    path
  ])
  const words = speech.words
    .filter((w) => w.start < length)
    .map((w) => ({ ...w, end: Math.min(w.end, length) }))
  const { style } = BUILT_IN_TEMPLATES.find((t) => t.id === DEFAULT_TEMPLATE_ID)!
  return { path, bytes: (await stat(path)).size, pages: layoutCaptions(words, layoutRulesOf(style)), style, words: words.length }
}

/** The render's picture chain (scale, setsar, fps) and output settings, without the captions. */
const plainEncode = (input: string, output: string) =>
  run("ffmpeg", [
    "-nostdin", "-y", "-hide_banner", "-v", "error",
    "-i", input,
    "-filter_complex", `[0:v:0]scale=${WIDTH}:${HEIGHT},setsar=1,fps=${FPS}[v]`,
    "-map", "[v]", "-map", "0:a:0?",
    ...x264Args(process.env["X264_PRESET"]), "-c:a", "aac", "-b:a", "128k",
    "-movflags", "+faststart",
    output
  ])

const burnCaptions = (clip: Clip, output: string, style: CaptionStyle = clip.style, pages: ReadonlyArray<CaptionPage> = clip.pages) =>
  Effect.runPromise(
    Effect.flatMap(MediaEngine, (engine) =>
      engine.burnCaptions({
        input: clip.path,
        output,
        captions: { pages: style === clip.style ? pages : layoutCaptions(pages.flatMap((p) => p.lines.flatMap((l) => l.words)), layoutRulesOf(style)), style },
        format: "standard",
        frameRate: FPS,
        width: WIDTH,
        height: HEIGHT
      })).pipe(Effect.provide(FfmpegEngineLive))
  )

interface VideoObject {
  readonly id: string
  readonly status: string
  readonly step?: string
  readonly error?: string
}

export interface PipelineRun {
  readonly totalSeconds: number
  readonly uploadSeconds: number
  readonly videoId: string
  readonly recognisedWords: number
}

/** Polling and the deadline are options because long sources (bench/long-source-memory.ts) run far past 8 min. */
export interface PipelineOptions {
  readonly timeoutMs?: number
  readonly pollMs?: number
  /** More form fields of the create (JSON values as text), e.g. `reframe`. */
  readonly fields?: Readonly<Record<string, string>>
}

export const pipeline = async (
  service: ServiceProcess,
  clip: Pick<Clip, "path">,
  { timeoutMs = PIPELINE_TIMEOUT_MS, pollMs = 100, fields = {} }: PipelineOptions = {}
): Promise<PipelineRun> => {
  const auth = { authorization: `Bearer ${service.token}` }
  const started = performance.now()
  const created = await postForm(`${service.baseUrl}/v1/caption-videos`, auth, { path: clip.path, contentType: "video/mp4" }, { render: "{}", ...fields })
  const uploadSeconds = seconds(performance.now() - started)
  const { body } = created
  if (!created.ok) throw new Error(`POST /v1/caption-videos answered ${created.status}: ${body.slice(0, 500)}`)
  const { id } = JSON.parse(body) as VideoObject
  for (;;) {
    const video = (await (await fetch(`${service.baseUrl}/v1/videos/${id}`, { headers: auth })).json()) as VideoObject
    if (video.status === "completed") break
    if (video.status === "failed") throw new Error(`the video failed at ${video.step}: ${video.error}`)
    if (performance.now() - started > timeoutMs) throw new Error(`not completed after ${timeoutMs / 1000} s (step ${video.step})`)
    await sleep(pollMs)
  }
  const totalSeconds = seconds(performance.now() - started)
  const captions = (await (await fetch(`${service.baseUrl}/v1/videos/${id}/captions`, { headers: auth })).json()) as {
    words?: ReadonlyArray<unknown>
  }
  return { totalSeconds, uploadSeconds, videoId: id, recognisedWords: captions.words?.length ?? 0 }
}

export const jsonLine = (line: string): Record<string, unknown> | undefined => {
  try {
    const parsed: unknown = JSON.parse(line)
    return typeof parsed === "object" && parsed !== null ? parsed as Record<string, unknown> : undefined
  } catch {
    return undefined
  }
}

/** The server logs one JSON line per step (of a video or a caption removal, `id` picks whose) and per job, with `durationMs`. */
export const stepTimings = (log: string, id: string): ReadonlyArray<{ name: string; seconds: number }> =>
  log.split("\n").flatMap((line) => {
    const entry = jsonLine(line)
    if (entry === undefined) return []
    const { message, durationMs, kind } = entry
    if (typeof message !== "string" || typeof durationMs !== "number") return []
    const seconds = durationMs / 1000
    const ofId = entry["videoId"] === id || entry["removalId"] === id
    const step = /^((?:removal )?step \w+) done$/.exec(message)
    if (step !== null && ofId) return [{ name: step[1]!, seconds }]
    if (message === "render encoded" && ofId) return [{ name: "render encode", seconds }]
    if (message === "job Done" && typeof kind === "string" && kind !== "webhook.deliver") return [{ name: `job ${kind}`, seconds }]
    return []
  })

export const captionRender = async (): Promise<ReadonlyArray<Figure>> => {
  const requested = Number(process.env["BENCH_RUNS"] ?? "")
  const runs = Number.isInteger(requested) && requested > 0 ? requested : 1
  const encodeRuns = Math.max(2, runs)
  const dir = await mkdtemp(join(tmpdir(), "bench-caption-render-"))
  try {
    console.log(`${BENCH}: making the ${SECONDS} s ${WIDTH}x${HEIGHT} ${FPS} fps spoken clip (not timed)`)
    const clip = await makeClip(dir)
    console.log(`${BENCH}: clip ${(clip.bytes / 1e6).toFixed(1)} MB, ${clip.words} words, ${clip.pages.length} caption pages`)
    const plain: Array<number> = []
    const plainCpu: Array<number> = []
    const burned: Array<number> = []
    for (let i = 1; i <= encodeRuns; i++) {
      const a = join(dir, "plain.mp4")
      const encoded = await withCpuOf(process.pid, () => timed(() => plainEncode(clip.path, a)))
      plain.push(encoded.value)
      if (encoded.cpuSeconds !== null) plainCpu.push(encoded.cpuSeconds)
      await rm(a, { force: true })
      console.log(`${BENCH}: run ${i}/${encodeRuns}  (a) plain re-encode ${plain.at(-1)!.toFixed(2)} s`)
      const b = join(dir, "burned.mp4")
      burned.push(await timed(() => burnCaptions(clip, b)))
      await rm(b, { force: true })
      console.log(`${BENCH}: run ${i}/${encodeRuns}  (b) burnCaptions      ${burned.at(-1)!.toFixed(2)} s`)
    }
    const a = median(plain)
    const b = median(burned)
    const figures: Array<Figure> = [
      { bench: BENCH, name: "(a) plain re-encode, same settings", value: a, unit: "s", note: `median of ${encodeRuns}` },
      { bench: BENCH, name: "(b) burnCaptions (render step)", value: b, unit: "s", note: `median of ${encodeRuns}` },
      { bench: BENCH, name: "b/a", value: b / a, unit: "x", target: { atMost: 1.15 } }
    ]

    // (d) The templates' own costs: the plainest (one line, no highlight, no motion) against the richest
    // candidates (glow, blur and pulse; shadow and bounce; a letter-by-letter box; two layers), burned in
    // turn three times or more, each template's median: one burn's time varies by a fifth on this machine.
    const templateOf = (id: number) => BUILT_IN_TEMPLATES.find((t) => t.id === id)!
    const plainest = templateOf(PLAINEST_TEMPLATE)
    const burnWith = async (id: number) => {
      const out = join(dir, `template${-id}.mp4`)
      const took = await timed(() => burnCaptions(clip, out, templateOf(id).style))
      await rm(out, { force: true })
      console.log(`${BENCH}: (d) template ${id} ${templateOf(id).name}: ${took.toFixed(2)} s`)
      return took
    }
    const templateRuns = Math.max(3, runs)
    const times = new Map<number, Array<number>>([PLAINEST_TEMPLATE, ...RICH_TEMPLATES].map((id) => [id, []]))
    for (let i = 0; i < templateRuns; i++) {
      for (const id of times.keys()) times.get(id)!.push(await burnWith(id))
    }
    const plainestSeconds = median(times.get(PLAINEST_TEMPLATE)!)
    const rich = RICH_TEMPLATES.map((id) => ({ id, seconds: median(times.get(id)!) }))
    const richest = rich.reduce((a, b) => (b.seconds > a.seconds ? b : a))
    figures.push(
      { bench: BENCH, name: `(d) template ${plainest.id} ${plainest.name} (plainest)`, value: plainestSeconds, unit: "s", note: `median of ${templateRuns}` },
      ...rich.map(({ id, seconds }) => ({ bench: BENCH, name: `(d) template ${id} ${templateOf(id).name}`, value: seconds, unit: "s", note: `median of ${templateRuns}` })),
      { bench: BENCH, name: "(d) richest / plainest template", value: richest.seconds / plainestSeconds, unit: "x", target: { atMost: 1.15 }, note: `richest: ${richest.id} ${templateOf(richest.id).name}` }
    )

    // (e) Emoji: one beside every line (the most an export draws, each line's first word's, a few
    // different ones so several overlays run), against the same captions without, burned in turn.
    const EMOJI = ["🔥", "🚀", "💡", "🎉"]
    const withEmoji = clip.pages.map((page, p) => ({
      ...page,
      lines: page.lines.map((line, l) => ({ ...line, words: line.words.map((w, k) => (k === 0 ? { ...w, emoji: EMOJI[(p + l) % EMOJI.length]! } : w)) }))
    }))
    const emojiOut = join(dir, "emoji.mp4")
    const withoutSeconds = await timed(() => burnCaptions(clip, emojiOut))
    const emojiSeconds = await timed(() => burnCaptions(clip, emojiOut, clip.style, withEmoji))
    await rm(emojiOut, { force: true })
    console.log(`${BENCH}: (e) without emoji ${withoutSeconds.toFixed(2)} s, with one on every line ${emojiSeconds.toFixed(2)} s`)
    figures.push(
      { bench: BENCH, name: "(e) burnCaptions, an emoji on every line", value: emojiSeconds, unit: "s", note: `${withEmoji.flatMap((p) => p.lines).length} lines` },
      { bench: BENCH, name: "(e) with emoji / without", value: emojiSeconds / withoutSeconds, unit: "x", note: `without: ${withoutSeconds.toFixed(2)} s, the same run` }
    )

    const pipelineTimes: Array<number> = []
    const pipelineCpu: Array<number> = []
    const details: Array<Figure> = []
    const service = await startService()
    try {
      for (let i = 1; i <= runs; i++) {
        const measured = await withCpuOf(service.pid, () => pipeline(service, clip).then((r) => r, (e: unknown) => (e instanceof Error ? e : new Error(String(e)))))
        const result = measured.value
        if (result instanceof Error) {
          console.log(`${BENCH}: run ${i}/${runs}  (c) pipeline FAILED: ${result.message}`)
          details.push({ bench: BENCH, name: `(c) run ${i}`, value: null, unit: "s", note: result.message.slice(0, 120) })
          continue
        }
        pipelineTimes.push(result.totalSeconds)
        if (measured.cpuSeconds !== null) pipelineCpu.push(measured.cpuSeconds)
        console.log(`${BENCH}: run ${i}/${runs}  (c) HTTP pipeline    ${result.totalSeconds.toFixed(2)} s`)
        if (i === 1) {
          details.push(
            { bench: BENCH, name: "(c) upload (POST answered)", value: result.uploadSeconds, unit: "s" },
            { bench: BENCH, name: "(c) words recognised", value: result.recognisedWords, unit: "words", note: `festival spoke ${clip.words}` },
            ...stepTimings(service.log(), result.videoId).map((t) => ({ bench: BENCH, name: `(c) ${t.name}`, value: t.seconds, unit: "s" }))
          )
        }
      }
    } finally {
      await service.stop()
    }
    const c = pipelineTimes.length > 0 ? median(pipelineTimes) : null
    figures.push(
      { bench: BENCH, name: "(c) HTTP pipeline, POST to completed", value: c, unit: "s", note: runs > 1 ? `median of ${pipelineTimes.length}` : "1 run" },
      { bench: BENCH, name: "c/a", value: c === null ? null : c / a, unit: "x", target: { atMost: 1.25 } },
      { bench: BENCH, name: "(a) CPU time", value: plainCpu.length > 0 ? median(plainCpu) : null, unit: "s", note: "ffmpeg's user and system time" },
      { bench: BENCH, name: "(c) CPU time", value: pipelineCpu.length > 0 ? median(pipelineCpu) : null, unit: "s", note: "the service's, with the ffmpeg and recogniser runs it waited for" },
      {
        bench: BENCH,
        name: `(c) CPU / ${availableParallelism()} cores / a`,
        value: pipelineCpu.length > 0 ? median(pipelineCpu) / availableParallelism() / a : null,
        unit: "x",
        note: "c/a were every core busy throughout (c): the least this machine allows (information)"
      },
      ...details
    )
    return figures
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

if (isEntryPoint(import.meta.url)) await report(await captionRender())
