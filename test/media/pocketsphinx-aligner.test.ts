// The forced aligner against festival speech whose word times festival reports: words pocketsphinx's
// dictionary lacks are said as festival's lexicon says them, and each word starts where festival said it.
import { describe, expect, it } from "vitest"
import { Effect } from "effect"
import { execFile } from "node:child_process"
import { mkdtemp } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { linearGrammar, makePocketsphinxAligner, parseHypseg } from "../../adapters/media/pocketsphinx-aligner.ts"
import { parseLexiconLines } from "../../adapters/media/pronouncing-dictionary.ts"
import { spokenForms } from "../../domain/spoken-forms.ts"
import { readWavFormat } from "../support/clips.ts"
import { speak } from "../support/festival.ts"

const run = promisify(execFile)

const aligner = makePocketsphinxAligner({
  binary: "pocketsphinx_batch",
  dictionary: "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict",
  festival: "festival",
  parallelism: 2
})

describe("pocketsphinx aligner", () => {
  it("parses hypothesis segments, festival's lexicon and writes a linear grammar", () => {
    const segments = parseHypseg("u0 S 0 T -4513 A -3502 L -1011 0 -144 -337 <sil> 9 -291 0 this 40 -590 0 with(2) 68\nu1 S 0 T 0 A 0 L 0 0\n")
    expect(segments.get("u0")).toEqual([
      { word: "<sil>", startFrame: 0, endFrame: 9 },
      { word: "this", startFrame: 9, endFrame: 40 },
      { word: "with(2)", startFrame: 40, endFrame: 68 }
    ])
    expect(segments.get("u1")).toEqual([])
    expect(parseLexiconLines('("zorblatt" nil (((z ao r) 1) ((b l ax t) 0)))\n("x" nil (((q) 0)))\n')).toEqual(new Map([["zorblatt", "Z AO R B L AH T"]]))
    expect(linearGrammar(["a", "b"], 0.05)).toContain("TRANSITION 0 1 0.95 a\nTRANSITION 0 1 0.05\n")
  })

  it("times every word, an invented name included, within 80 ms of festival's starts, across two requests", async () => {
    const dir = await mkdtemp(join(tmpdir(), "aligner-"))
    const text = "Meet Quibblethorpe at the lighthouse tonight. Bring the lantern and a warm coat."
    const speech = await speak(text, dir)
    const wav = join(dir, "speech.wav")
    await run("ffmpeg", ["-nostdin", "-y", "-v", "error", "-i", speech.wavPath, "-ar", "16000", "-ac", "1", "-c:a", "pcm_s16le", wav])
    const { durationSeconds } = await readWavFormat(wav)
    const words = text.split(" ")
    const cut = 6
    const at = (speech.words[cut - 1]!.end + speech.words[cut]!.start) / 2
    const marks = await Effect.runPromise(aligner.align(wav, [
      { start: 0, end: at, words: words.slice(0, cut).map(spokenForms) },
      { start: at, end: durationSeconds, words: words.slice(cut).map(spokenForms) },
      { start: 0, end: durationSeconds, words: [[], ["🙂"]] }
    ]))
    const starts = marks.slice(0, 2).flat().map((m) => m.start)
    expect(starts.every((s) => s !== undefined)).toBe(true)
    starts.forEach((start, i) => expect(Math.abs(start! - speech.words[i]!.start)).toBeLessThan(0.08))
    expect(marks[2]).toEqual([{}, {}])
  })
})
