import { Effect, Option } from "effect"
import { execFile } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { SpeechEngineShape } from "../../domain/ports/speech-engine.ts"
import { scriptWords } from "../../domain/spoken-words.ts"
import { makeFestivalSpeechEngine } from "../../adapters/speech/festival-speech-engine.ts"

const run = promisify(execFile)

const durationOf = async (path: string): Promise<number> =>
  Number((await run("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path])).stdout)

describe("festival speech engine", () => {
  let dir = ""
  let engine: SpeechEngineShape
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "festival-engine-"))
    engine = Option.getOrThrow(await Effect.runPromise(makeFestivalSpeechEngine))
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  it("offers the natural HTS voice first", () => {
    expect(engine.voices[0]).toEqual({ id: "festival-slt", name: "Sally (natural)", language: "en-US", gender: "female" })
  })

  it("speaks every written word of the script with the engine's own times", async () => {
    const text = "Hello, world! In 2024 we paid $5 -- it's Dr. Smith's \"great\" idea."
    const outputWav = join(dir, "speech.wav")
    const spoken = await Effect.runPromise(engine.speak({ text, voiceId: "festival-slt", outputWav }))
    expect(spoken.durationSeconds).toBeCloseTo(await durationOf(outputWav), 1)
    expect(spoken.words.map((w) => w.text)).toEqual(scriptWords(text))
    for (const [i, w] of spoken.words.entries()) {
      expect(w.end).toBeGreaterThanOrEqual(w.start)
      expect(w.end).toBeLessThanOrEqual(spoken.durationSeconds)
      if (i > 0) expect(w.start).toBeGreaterThanOrEqual(spoken.words[i - 1]!.end - 1e-6)
    }
    // "2024" is said as three words: its written token spans all of them.
    const year = spoken.words.find((w) => w.text === "2024")!
    expect(year.end - year.start).toBeGreaterThan(0.6)
  })

  // Festival's stack overflowed on a long run of non-ASCII bytes: the words around them are spoken now.
  it("speaks a script with a long run of emoji and accents, timing every written word", async () => {
    const text = `Hello there ${"😀".repeat(500)} caf\u00e9 ${"\u00e9".repeat(600)}`
    const spoken = await Effect.runPromise(engine.speak({ text, voiceId: "festival-slt", outputWav: join(dir, "emoji.wav") }))
    expect(spoken.durationSeconds).toBeGreaterThan(0.5)
    expect(spoken.words.map((w) => w.text)).toEqual(scriptWords(text))
  })

  it("refuses a voice it does not have", async () => {
    const result = await Effect.runPromise(Effect.either(engine.speak({ text: "Hi", voiceId: "festival-nobody", outputWav: join(dir, "x.wav") })))
    expect(result._tag).toBe("Left")
  })
})
