// The export of a trimmed caption video: the cuts leave the picture and the sound together (same
// frames and samples out), the sound fades at each cut so nothing clicks, and the captions are on the
// shortened timeline: recognised again in the cut audio, the words are where the captions say.
import { execFile } from "node:child_process"
import { mkdtemp, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { FfmpegEngineLive } from "../../adapters/media/ffmpeg-engine.ts"
import { PocketsphinxTranscriberLive } from "../../adapters/media/pocketsphinx-transcriber.ts"
import { BUILT_IN_TEMPLATES, layoutCaptions, layoutRulesOf } from "../../domain/captions.ts"
import { MediaEngine } from "../../domain/ports/media-engine.ts"
import { Transcriber } from "../../domain/ports/transcriber.ts"
import { type Cut, cutSeconds, planCuts, retimeCaptions } from "../../domain/trim.ts"
import { readWavFormat } from "../support/clips.ts"
import { speak } from "../support/festival.ts"

const run = promisify(execFile)
const ffmpeg = (...args: Array<string>) => run("ffmpeg", ["-nostdin", "-y", "-v", "error", ...args])
const W = 360
const H = 640
const STYLE = BUILT_IN_TEMPLATES.find((t) => t.id === -1)!.style
const RATE = 48_000

let dir = ""

const durationOf = async (path: string, stream: "v:0" | "a:0"): Promise<number> => {
  const { stdout } = await run("ffprobe", ["-v", "error", "-select_streams", stream, "-show_entries", "stream=duration", "-of", "csv=p=0", path])
  return Number(stdout.trim())
}

/** The output's sound as mono float samples at RATE. */
const samples = async (path: string): Promise<Float32Array> => {
  const raw = join(dir, `${Math.random().toString(36).slice(2)}.f32`)
  await ffmpeg("-i", path, "-map", "0:a:0", "-ac", "1", "-ar", String(RATE), "-f", "f32le", raw)
  const bytes = await readFile(raw)
  return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4)
}

/**
 * The sharpest bend of the waveform within `radius` seconds of `t` (the largest second difference): a
 * tone bends smoothly, a click (a jump between two phases) bends at once.
 */
const sharpestBend = (pcm: Float32Array, t: number, radius = 0.005): number => {
  let largest = 0
  const from = Math.max(1, Math.floor((t - radius) * RATE))
  const to = Math.min(pcm.length - 1, Math.ceil((t + radius) * RATE))
  for (let i = from; i < to; i++) largest = Math.max(largest, Math.abs(pcm[i + 1]! - 2 * pcm[i]! + pcm[i - 1]!))
  return largest
}

const burn = (input: string, output: string, cuts: ReadonlyArray<Cut>, pages: Parameters<typeof layoutCaptions>[0]) =>
  Effect.flatMap(MediaEngine, (media) =>
    media.burnCaptions({
      input,
      output,
      captions: { pages: layoutCaptions(pages, layoutRulesOf(STYLE), null), style: STYLE },
      cuts,
      format: "standard",
      frameRate: 30,
      width: W,
      height: H
    }))

/**
 * A test picture over a tone of `seconds`, exported with the cuts; checks that the picture and the
 * sound both lost the cuts' time (the picture to a frame, the sound to the encoder's padding). The mp4.
 */
const cutTone = (frequency: number, seconds: number, cuts: ReadonlyArray<Cut>) =>
  Effect.gen(function*() {
    const input = join(dir, `tone-${frequency}-${seconds}.mkv`)
    yield* Effect.promise(() =>
      ffmpeg(
        "-f", "lavfi", "-i", `testsrc2=s=${W}x${H}:r=30:d=${seconds}`, "-f", "lavfi", "-i", `sine=frequency=${frequency}:sample_rate=${RATE}:d=${seconds}`,
        "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "pcm_s16le", "-shortest", input
      ))
    const output = input.replace(".mkv", "-cut.mp4")
    yield* burn(input, output, cuts, [])
    const expected = seconds - cutSeconds(cuts)
    expect(Math.abs((yield* Effect.promise(() => durationOf(output, "v:0"))) - expected)).toBeLessThan(1 / 30 + 1e-3)
    expect(Math.abs((yield* Effect.promise(() => durationOf(output, "a:0"))) - expected)).toBeLessThan(0.03)
    return output
  })

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "trimmed-render-"))
})

afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

layer(Layer.mergeAll(FfmpegEngineLive, PocketsphinxTranscriberLive))("a trimmed export", (it) => {
  describe("cuts", () => {
    it.effect("take the same time out of the picture and the sound, and fade the sound so a cut inside a tone does not click", () =>
      Effect.gen(function*() {
        // A 440 Hz tone: a hard cut inside it jumps from one phase to another, a click.
        const output = yield* cutTone(440, 4, [{ start: 1.0 + 1 / 30, end: 1.5, reason: "silence" }, { start: 2.5, end: 3.0 + 2 / 30, reason: "filler" }])
        const pcm = yield* Effect.promise(() => samples(output))
        // Where the tone plays on undisturbed, and at the two cuts (on the output's timeline).
        const steady = sharpestBend(pcm, 0.5, 0.2)
        const atCuts = [1.0 + 1 / 30, 1.0 + 1 / 30 + (2.5 - 1.5)].map((t) => sharpestBend(pcm, t))
        for (const bend of atCuts) expect(bend).toBeLessThan(steady * 2)
      }), 60_000)

    it.effect("of a long talk (hundreds) still take their time out of both", () =>
      Effect.gen(function*() {
        // 250 cuts of a frame, one every other frame from 1 s to 17.7 s: more than one ffmpeg expression holds.
        yield* cutTone(300, 20, Array.from({ length: 250 }, (_, i) => ({ start: 1 + (i * 2) / 30, end: 1 + (i * 2 + 1) / 30, reason: "silence" })))
      }), 60_000)
  })

  it.effect("puts the captions where the cut speech says the words, within 40 ms", () =>
    Effect.gen(function*() {
      // Three phrases with long pauses between them and before and after.
      const phrases = ["the harbour lights came on at seven", "nobody on the pier looked up", "the ferry was already late"]
      const spoken = yield* Effect.promise(() => Promise.all(phrases.map((text) => speak(text, dir))))
      const gap = 1.5
      const wav = join(dir, "speech.wav")
      const inputs = spoken.flatMap((s) => ["-i", s.wavPath])
      const chain = spoken.map((_, i) => `[${i}:a]aresample=48000,apad=pad_dur=${gap}[p${i}]`).join(";")
      yield* Effect.promise(() =>
        ffmpeg(...inputs, "-filter_complex", `${chain};${spoken.map((_, i) => `[p${i}]`).join("")}concat=n=${spoken.length}:v=0:a=1,adelay=${gap * 1000}:all=1[a]`, "-map", "[a]", wav))
      // Each phrase starts after the ones before it, whole (festival leaves silence after the last word), and their pauses.
      const lengths = yield* Effect.promise(() => Promise.all(spoken.map((s) => readWavFormat(s.wavPath).then((f) => f.durationSeconds))))
      const words = spoken.flatMap((s, i) => {
        const offset = gap + lengths.slice(0, i).reduce((sum, length) => sum + length + gap, 0)
        return s.words.map((word) => ({ text: word.text, start: word.start + offset, end: word.end + offset }))
      })
      const total = (yield* Effect.promise(() => durationOf(wav, "a:0"))) || words.at(-1)!.end + gap
      const source = join(dir, "talk.mp4")
      yield* Effect.promise(() =>
        ffmpeg("-f", "lavfi", "-i", `smptehdbars=s=${W}x${H}:r=30`, "-i", wav, "-map", "0:v", "-map", "1:a", "-t", total.toFixed(3),
          "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", source))
      const cuts = planCuts(words, total, { silence: "natural", fillers: false })
      // The pauses of 1.5 s and more: before, between (twice) and after.
      expect(cuts).toHaveLength(4)
      const output = join(dir, "talk-cut.mp4")
      const retimed = retimeCaptions(words, null, cuts).words
      yield* burn(source, output, cuts, retimed)
      const length = yield* Effect.promise(() => durationOf(output, "v:0"))
      expect(Math.abs(length - (total - cutSeconds(cuts)))).toBeLessThan(0.05)
      expect(length).toBeLessThan(total - 4)

      // The recogniser hears each word a little off festival's own time: heard in the source and in the cut
      // output, a word must have moved by what its caption moved, within 40 ms.
      const hear = (video: string) =>
        Effect.gen(function*() {
          const heardWav = `${video}.wav`
          yield* Effect.promise(() => ffmpeg("-i", video, "-map", "0:a:0", "-ac", "1", "-ar", "16000", "-c:a", "pcm_s16le", heardWav))
          return yield* (yield* Transcriber).transcribe(heardWav, {})
        })
      const before = yield* hear(source)
      const after = yield* hear(output)
      const captionShift = new Map(words.map((word, i) => [i, retimed[i]!.start - word.start]))
      const moves: Array<number> = []
      let inBefore = 0
      let inAfter = 0
      for (const [i, word] of words.entries()) {
        const a = before.findIndex((w, k) => k >= inBefore && w.text.toLowerCase() === word.text)
        const b = after.findIndex((w, k) => k >= inAfter && w.text.toLowerCase() === word.text)
        if (a < 0 || b < 0) continue
        moves.push(Math.abs(after[b]!.start - before[a]!.start - captionShift.get(i)!))
        inBefore = a + 1
        inAfter = b + 1
      }
      expect(moves.length).toBeGreaterThanOrEqual(words.length * 0.6)
      expect(Math.max(...moves)).toBeLessThan(0.04)
    }), 120_000)
})
