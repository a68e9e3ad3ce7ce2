// Trimming a 10-minute talk: how much each pace takes out, how long planning the cuts takes, and what
// the cuts cost the export. The talk is festival speaking a script with fillers ("um", "uh", a word said
// twice) and pauses of 0.2 to 1.6 s between its sentences, looped to 10 minutes at 640x360 (the word
// times are festival's own, looped with it: recognition is measured by the recognition bench).
//   ours: the export with the fast pace's cuts and fillers (FfmpegEngine.burnCaptions with cuts)
//   baseline: the same export of the same talk and captions, without cuts
import { execFile } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { Effect } from "effect"
import { FfmpegEngineLive } from "../adapters/media/ffmpeg-engine.ts"
import { BUILT_IN_TEMPLATES, layoutCaptions, layoutRulesOf, type TimedWord } from "../domain/captions.ts"
import { MediaEngine } from "../domain/ports/media-engine.ts"
import { type Cut, cutSeconds, planCuts, retimeCaptions, type SilencePace } from "../domain/trim.ts"
import { speak } from "../test/support/festival.ts"
import { type Figure, isEntryPoint, report } from "./figures.ts"

const run = promisify(execFile)
const BENCH = "trim"
const MINUTES = Number(process.env["TRIM_BENCH_MINUTES"] ?? 10)
const W = 640
const H = 360
const STYLE = BUILT_IN_TEMPLATES.find((t) => t.id === -1)!.style

/** Sentences of a talk, some with the fillers and repeats people say, each followed by its pause (seconds). */
const TALK: ReadonlyArray<readonly [string, number]> = [
  ["So um today I want to talk about how harbours work.", 0.8],
  ["Every morning the the pilots go out before sunrise.", 0.4],
  ["Uh they meet the big ships outside the breakwater.", 1.2],
  ["The ship slows down and the pilot climbs a rope ladder.", 0.3],
  ["That sounds dangerous, and um honestly it is.", 1.6],
  ["Once aboard, the pilot guides the ship to its berth.", 0.6],
  ["Tugs push and pull it into place.", 0.2],
  ["Then the cranes start unloading the containers.", 1.0]
]

const timed = (words: ReadonlyArray<TimedWord>, offset: number) =>
  words.map((w) => ({ text: w.text, start: w.start + offset, end: w.end + offset }))

/** The talk once (speech and pauses), and its words: festival speaks each sentence, the pauses follow. */
const makeTalk = async (dir: string) => {
  const spoken = await Promise.all(TALK.map(([text]) => speak(text, dir)))
  const lengths = await Promise.all(spoken.map(async (s) => {
    const { stdout } = await run("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", s.wavPath])
    return Number(stdout)
  }))
  const path = join(dir, "talk.wav")
  const chains = spoken.map((_, i) => `[${i}:a]aresample=48000,apad=pad_dur=${TALK[i]![1]}[p${i}]`)
  await run("ffmpeg", [
    "-nostdin", "-y", "-v", "error", ...spoken.flatMap((s) => ["-i", s.wavPath]),
    "-filter_complex", `${chains.join(";")};${spoken.map((_, i) => `[p${i}]`).join("")}concat=n=${spoken.length}:v=0:a=1[a]`,
    "-map", "[a]", path
  ])
  const words: Array<TimedWord> = []
  let at = 0
  for (const [i, s] of spoken.entries()) {
    words.push(...timed(s.words, at))
    at += lengths[i]! + TALK[i]![1]
  }
  return { path, words, seconds: at }
}

/** The talk looped to `minutes` over a still picture, with its words looped alike. */
const makeSource = async (dir: string, minutes: number) => {
  const talk = await makeTalk(dir)
  const loops = Math.floor((minutes * 60) / talk.seconds)
  const seconds = loops * talk.seconds
  const path = join(dir, "talk.mp4")
  await run("ffmpeg", [
    "-nostdin", "-y", "-v", "error",
    "-f", "lavfi", "-i", `smptehdbars=s=${W}x${H}:r=30`,
    "-stream_loop", String(loops - 1), "-i", talk.path,
    "-map", "0:v", "-map", "1:a", "-t", seconds.toFixed(3),
    "-c:v", "libx264", "-preset", "veryfast", "-crf", "20", "-pix_fmt", "yuv420p", "-c:a", "aac", "-ac", "1", "-b:a", "64k",
    path
  ])
  const words = Array.from({ length: loops }, (_, k) => timed(talk.words, k * talk.seconds)).flat()
  return { path, words, seconds }
}

const burn = (input: string, output: string, words: ReadonlyArray<TimedWord>, cuts: ReadonlyArray<Cut>) =>
  Effect.flatMap(MediaEngine, (media) => {
    const shown = retimeCaptions(words, null, cuts).words
    return media.burnCaptions({
      input,
      output,
      captions: { pages: layoutCaptions(shown, layoutRulesOf(STYLE), null), style: STYLE },
      cuts,
      format: "standard",
      frameRate: 30,
      width: W,
      height: H
    })
  }).pipe(Effect.provide(FfmpegEngineLive))

const timedRun = async (effect: Effect.Effect<void, unknown>): Promise<number> => {
  const started = performance.now()
  await Effect.runPromise(effect)
  return (performance.now() - started) / 1000
}

export const trim = async (): Promise<ReadonlyArray<Figure>> => {
  const dir = await mkdtemp(join(tmpdir(), "bench-trim-"))
  try {
    const source = await makeSource(dir, MINUTES)
    const note = `${(source.seconds / 60).toFixed(1)} min talk, ${source.words.length} words, ${W}x${H}`
    const paces: ReadonlyArray<SilencePace> = ["natural", "fast", "extra-fast"]
    const shares = paces.map((silence) => {
      const started = performance.now()
      const cuts = planCuts(source.words, source.seconds, { silence, fillers: true })
      const planMs = performance.now() - started
      console.log(`${BENCH}: ${silence.padEnd(10)} ${cuts.length} cuts, ${cutSeconds(cuts).toFixed(1)} s out, planned in ${planMs.toFixed(1)} ms`)
      return { silence, cuts, planMs }
    })
    const fast = shares.find((s) => s.silence === "fast")!
    const plain = await timedRun(burn(source.path, join(dir, "plain.mp4"), source.words, []))
    console.log(`${BENCH}: export without cuts ${plain.toFixed(1)} s`)
    const cut = await timedRun(burn(source.path, join(dir, "cut.mp4"), source.words, fast.cuts))
    console.log(`${BENCH}: export with the fast pace's cuts ${cut.toFixed(1)} s`)
    const outputSeconds = source.seconds - cutSeconds(fast.cuts)
    return [
      ...shares.map(({ cuts, planMs, silence }): Figure => ({
        bench: BENCH,
        name: `share of the talk cut: ${silence}, fillers`,
        value: (cutSeconds(cuts) / source.seconds) * 100,
        unit: "%",
        note: `${cuts.length} cuts, planned in ${planMs.toFixed(1)} ms; ${note}`
      })),
      { bench: BENCH, name: "export with cuts (fast, fillers)", value: cut, unit: "s", note: `${(outputSeconds / 60).toFixed(1)} min out` },
      { bench: BENCH, name: "export without cuts", value: plain, unit: "s", note },
      {
        bench: BENCH,
        name: "export with cuts / without, per second of output",
        value: (cut / outputSeconds) / (plain / source.seconds),
        unit: "x",
        note: `the same encoder settings; load average ${loadavg()[0]!.toFixed(2)}`
      }
    ]
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

if (isEntryPoint(import.meta.url)) await report(await trim())
