// Whether a worker's memory stays flat in the input's length (issue 21, target 7): the real service
// (API and worker in one process) captions and renders a 640x360 30 fps spoken source of 10 and 60
// minutes. Per length: the node process's peak RSS (target <= 500 MB), the peak RSS of its process
// tree (ffmpeg, the recogniser), the transcription and render steps' times; and how transcription
// time grows: seconds per source minute at the longest over the shortest (linear: about 1).
// LONG_SOURCE_MINUTES=1,3 picks other lengths (a comma list) for a quick try.
import { execFile } from "node:child_process"
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { promisify } from "node:util"
import { MAX_SOURCE_BYTES, MAX_SOURCE_SECONDS } from "../domain/rules.ts"
import { speak } from "../test/support/festival.ts"
import { jsonLine, pipeline, SCRIPT, stepTimings } from "./caption-render.ts"
import { type Figure, isEntryPoint, report } from "./figures.ts"
import { memoryOf } from "./process-memory.ts"
import { startService } from "./service-process.ts"

const run = promisify(execFile)

const BENCH = "long-source-memory"
const WIDTH = 640
const HEIGHT = 360
const FPS = 30
const DEFAULT_MINUTES = [10, 60]
const SAMPLE_EVERY_MS = 200
const NODE_RSS_TARGET_MB = 500
/** "About 1": a little fixed cost (model loading) is amortised, so the long source may come out below 1. */
const LINEARITY_TARGET = 1.2
/** Seconds of silence after the spoken script, so each loop starts after a pause, as a new sentence would. */
const LOOP_GAP_SECONDS = 1

const minutesToRun = (): ReadonlyArray<number> => {
  const given = process.env["LONG_SOURCE_MINUTES"]
  if (given === undefined || given.trim() === "") return DEFAULT_MINUTES
  const minutes = given.split(",").map((m) => Number(m.trim()))
  if (minutes.some((m) => !(m > 0) || m * 60 > MAX_SOURCE_SECONDS)) {
    throw new Error(`LONG_SOURCE_MINUTES must be a comma list of minutes in (0, ${MAX_SOURCE_SECONDS / 60}], got "${given}"`)
  }
  return minutes
}

/** One minute of moving picture, encoded once: every source loops it, so making a 60-minute file is a copy, not an encode. */
const makeSegment = async (dir: string): Promise<string> => {
  const path = join(dir, "segment.mp4")
  await run("ffmpeg", [
    "-nostdin", "-y", "-v", "error",
    "-f", "lavfi", "-i", `testsrc2=s=${WIDTH}x${HEIGHT}:r=${FPS}`, "-t", "60",
    // Low bitrate keeps an hour well under the API's byte limit; closed GOPs make the loop seams clean cuts.
    "-c:v", "libx264", "-preset", "veryfast", "-crf", "35", "-g", String(2 * FPS), "-bf", "0", "-pix_fmt", "yuv420p",
    path
  ])
  return path
}

interface LoopedSpeech {
  readonly path: string
  readonly words: number
  readonly seconds: number
}

/** Festival speaking caption-render's script, then a pause: the audio that is looped. */
const makeSpeech = async (dir: string): Promise<LoopedSpeech> => {
  const speech = await speak(SCRIPT, dir)
  const path = join(dir, "speech-gap.wav")
  await run("ffmpeg", ["-nostdin", "-y", "-v", "error", "-i", speech.wavPath, "-af", `apad=pad_dur=${LOOP_GAP_SECONDS}`, path])
  const { stdout } = await run("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path])
  return { path, words: speech.words.length, seconds: Number(stdout) }
}

/** The picture and the speech looped to `minutes`, audio mono AAC 64k as a plain recording would be. */
const makeSource = async (dir: string, segment: string, speech: string, minutes: number): Promise<{ path: string; bytes: number }> => {
  const path = join(dir, `source-${minutes}min.mp4`)
  await run("ffmpeg", [
    "-nostdin", "-y", "-v", "error",
    "-stream_loop", "-1", "-i", segment,
    "-stream_loop", "-1", "-i", speech,
    "-map", "0:v", "-map", "1:a", "-t", String(minutes * 60),
    "-c:v", "copy", "-c:a", "aac", "-ac", "1", "-b:a", "64k", "-movflags", "+faststart",
    path
  ])
  const bytes = (await stat(path)).size
  if (bytes > MAX_SOURCE_BYTES) throw new Error(`the ${minutes} min source is ${bytes} bytes, over the API's ${MAX_SOURCE_BYTES}`)
  return { path, bytes }
}

/** Every descendant of `pid`: each thread's `children` file lists the processes that thread started. */
const descendantsOf = async (pid: number): Promise<ReadonlyArray<number>> => {
  const tasks = await readdir(`/proc/${pid}/task`).catch(() => [])
  const children = (
    await Promise.all(tasks.map((t) => readFile(`/proc/${pid}/task/${t}/children`, "utf8").catch(() => "")))
  ).flatMap((text) => text.split(/\s+/).filter((s) => s !== "").map(Number))
  const deeper = await Promise.all(children.map(descendantsOf))
  return [...children, ...deeper.flat()]
}

interface MemoryPeaks {
  /** The node process: the larger of the sampled RSS and VmHWM, bytes. */
  readonly node: number
  /** Sum of the RSS of node and its descendants, sampled only (an exited child's peak is gone), bytes. */
  readonly tree: number
  /** Each child command's largest sampled RSS, bytes: which program a tree peak came from. */
  readonly children: ReadonlyMap<string, number>
  readonly samples: number
}

const commandOf = (pid: number): Promise<string> =>
  readFile(`/proc/${pid}/comm`, "utf8").then((c) => c.trim(), () => "?")

/** Samples until `stop` is called; sequential, so a slow /proc walk never overlaps the next sample. */
const sampleMemory = (pid: number): { readonly stop: () => Promise<MemoryPeaks> } => {
  let running = true
  let node = 0
  let tree = 0
  let samples = 0
  const children = new Map<string, number>()
  const loop = (async () => {
    while (running) {
      const own = await memoryOf(pid)
      if (own === undefined) break
      const sampled = await Promise.all(
        (await descendantsOf(pid)).map(async (child) => ({ command: await commandOf(child), rss: (await memoryOf(child))?.rss ?? 0 }))
      )
      for (const { command, rss } of sampled) children.set(command, Math.max(children.get(command) ?? 0, rss))
      node = Math.max(node, own.rss, own.hwm)
      tree = Math.max(tree, own.rss + sampled.reduce((sum, c) => sum + c.rss, 0))
      samples++
      await sleep(SAMPLE_EVERY_MS)
    }
  })()
  return {
    stop: async () => {
      running = false
      await loop
      return { node, tree, children, samples }
    }
  }
}

/** The recogniser the service picked, from its JSON start line (`captions: { engine, model }`). */
const captionEngine = (log: string): string => {
  for (const line of log.split("\n")) {
    const captions = jsonLine(line)?.["captions"]
    if (typeof captions === "object" && captions !== null && "engine" in captions) {
      const { engine, model } = captions as { engine: unknown; model: unknown }
      return `${String(engine)} (${String(model)})`
    }
  }
  return "unknown engine"
}

interface LengthResult {
  readonly minutes: number
  readonly nodePeakMb: number
  readonly treePeakMb: number
  /** The children's commands with their peaks, largest first. */
  readonly childPeaks: string
  readonly transcriptionSeconds: number | null
  readonly renderSeconds: number | null
  readonly note: string
}

/** Decimal megabytes, the unit of the 500 MB target. */
const toMb = (bytes: number): number => bytes / 1e6

const perMinute = (r: LengthResult): number | null => (r.transcriptionSeconds === null ? null : r.transcriptionSeconds / r.minutes)

/** A fresh service per length, so each peak belongs to one source and none is left over from the last. */
const measure = async (source: { path: string; bytes: number }, minutes: number, spokenWords: number): Promise<LengthResult> => {
  const service = await startService()
  try {
    const engine = captionEngine(service.log())
    const before = await memoryOf(service.pid)
    console.log(
      `${BENCH}: ${minutes} min: service pid ${service.pid} (${engine}), RSS ${toMb(before?.rss ?? 0).toFixed(0)} MB; ` +
        `uploading ${toMb(source.bytes).toFixed(1)} MB`
    )
    const sampler = sampleMemory(service.pid)
    // Generous: pocketsphinx and the encode each run at a fraction of real time, but this box may be slow or busy.
    const timeoutMs = (10 + 2 * minutes) * 60_000
    const outcome = await pipeline(service, source, { timeoutMs, pollMs: 1_000 }).then(
      (r) => r,
      (e: unknown) => (e instanceof Error ? e : new Error(String(e)))
    )
    const peaks = await sampler.stop()
    const childPeaks = [...peaks.children].sort((a, b) => b[1] - a[1]).map(([c, rss]) => `${c} ${toMb(rss).toFixed(0)}`).join(", ")
    if (outcome instanceof Error) {
      console.log(`${BENCH}: ${minutes} min FAILED: ${outcome.message}`)
      return {
        minutes,
        nodePeakMb: toMb(peaks.node),
        treePeakMb: toMb(peaks.tree),
        childPeaks,
        transcriptionSeconds: null,
        renderSeconds: null,
        note: outcome.message.slice(0, 120)
      }
    }
    const steps = stepTimings(service.log(), outcome.videoId)
    const secondsOf = (name: string) => steps.find((s) => s.name === name)?.seconds ?? null
    const result: LengthResult = {
      minutes,
      nodePeakMb: toMb(peaks.node),
      treePeakMb: toMb(peaks.tree),
      childPeaks,
      transcriptionSeconds: secondsOf("step transcribing"),
      renderSeconds: secondsOf("render encode"),
      note: `${engine}; ${outcome.recognisedWords} words recognised of about ${spokenWords} spoken; ` +
        `${peaks.samples} samples; ${outcome.totalSeconds.toFixed(0)} s POST to completed`
    }
    console.log(
      `${BENCH}: ${minutes} min: node peak ${result.nodePeakMb.toFixed(0)} MB, tree peak ${result.treePeakMb.toFixed(0)} MB, ` +
        `transcribing ${result.transcriptionSeconds?.toFixed(1)} s, render ${result.renderSeconds?.toFixed(1)} s; ${result.note}`
    )
    return result
  } finally {
    await service.stop()
  }
}

export const longSourceMemory = async (): Promise<ReadonlyArray<Figure>> => {
  // The worker must run inside the measured process: startService passes ROLE on, and `all` is the default.
  const role = process.env["ROLE"] ?? "all"
  if (role !== "all") throw new Error(`${BENCH} needs ROLE unset or all (API and worker in one process), got ${role}`)
  const lengths = minutesToRun()
  const dir = await mkdtemp(join(tmpdir(), "bench-long-source-memory-"))
  try {
    console.log(`${BENCH}: making ${WIDTH}x${HEIGHT} ${FPS} fps spoken sources of ${lengths.join(", ")} min (not timed)`)
    const segment = await makeSegment(dir)
    const speech = await makeSpeech(dir)
    const results: Array<LengthResult> = []
    for (const minutes of lengths) {
      const source = await makeSource(dir, segment, speech.path, minutes)
      results.push(await measure(source, minutes, Math.round((speech.words * minutes * 60) / speech.seconds)))
      // Only one source on disk at a time: an hour of it is a few hundred MB.
      await rm(source.path, { force: true })
    }
    const figures: Array<Figure> = results.flatMap((r) => {
      const at = `${r.minutes} min`
      return [
        { bench: BENCH, name: `${at}: node RSS peak`, value: r.nodePeakMb, unit: "MB", target: { atMost: NODE_RSS_TARGET_MB }, note: r.note },
        { bench: BENCH, name: `${at}: process tree RSS peak`, value: r.treePeakMb, unit: "MB", note: `sampled sum; children's peaks, MB: ${r.childPeaks}` },
        { bench: BENCH, name: `${at}: transcription`, value: r.transcriptionSeconds, unit: "s" },
        {
          bench: BENCH,
          name: `${at}: transcription per source minute`,
          value: perMinute(r),
          unit: "s/min"
        },
        { bench: BENCH, name: `${at}: render encode`, value: r.renderSeconds, unit: "s" }
      ]
    })
    const sorted = [...results].sort((a, b) => a.minutes - b.minutes)
    const shortest = sorted[0]
    const longest = sorted.at(-1)
    if (shortest !== undefined && longest !== undefined && shortest.minutes !== longest.minutes) {
      const long = perMinute(longest)
      const short = perMinute(shortest)
      figures.push(
        {
          bench: BENCH,
          name: "transcription s/min, longest over shortest",
          value: long === null || short === null ? null : long / short,
          unit: "x",
          target: { atMost: LINEARITY_TARGET },
          note: `${longest.minutes} min over ${shortest.minutes} min; about 1 is linear`
        },
        {
          bench: BENCH,
          name: "node RSS peak, longest minus shortest",
          value: longest.nodePeakMb - shortest.nodePeakMb,
          unit: "MB",
          note: "flat in length: about 0"
        }
      )
    }
    return figures
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

if (isEntryPoint(import.meta.url)) await report(await longSourceMemory())
