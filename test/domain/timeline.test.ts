// The timeline: its JSON form, its duration, and narration split into scenes at sentence ends.
import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import type { TimedWord } from "../../domain/captions.ts"
import { ASPECT_SIZES, NARRATION_TAIL_SECONDS, scenesForWords, Timeline, timelineDuration } from "../../domain/timeline.ts"

/** Words 0.1 s apart, each 0.3 s long, sentences 0.5 s apart. */
const spoken = (text: string): Array<TimedWord> => {
  let t = 0
  return text.split(" ").map((word) => {
    const timed = { text: word, start: t, end: t + 0.3 }
    t += /[.!?]$/.test(word) ? 0.8 : 0.4
    return timed
  })
}

const texts = (spans: ReturnType<typeof scenesForWords>) => spans.map((s) => s.words.map((w) => w.text).join(" "))
const total = (spans: ReturnType<typeof scenesForWords>) => spans.reduce((sum, s) => sum + s.durationSeconds, 0)

const timeline: Timeline = {
  width: 1080,
  height: 1920,
  frameRate: 30,
  format: "standard",
  background: "#000000",
  scenes: [
    { durationSeconds: 2.5, visual: { _tag: "Image", path: "a.png", motion: "zoom-in" }, overlays: [] },
    {
      durationSeconds: 1.25,
      visual: {
        _tag: "Split",
        top: { _tag: "Colour", hex: "#112233" },
        bottom: { _tag: "Video", path: "b.mp4", loop: true, startSeconds: 3 }
      },
      overlays: [
        { _tag: "Text", text: "Hi", position: "top", fontSizeRatio: 0.05, color: "#FFFFFF" },
        { _tag: "Image", path: "logo.png", x: 0.1, y: 0.1, width: 0.2 }
      ],
      transition: "fade"
    }
  ],
  narration: { path: "n.wav", words: [{ text: "Hi", start: 0.1, end: 0.4 }] },
  captions: null,
  music: { path: "m.mp3", volume: 0.2 }
}

describe("Timeline", () => {
  it("round-trips through JSON", () => {
    const json = JSON.parse(JSON.stringify(Schema.encodeSync(Timeline)(timeline))) as unknown
    expect(Schema.decodeUnknownSync(Timeline)(json)).toEqual(timeline)
  })

  it("rejects odd sizes, no scenes, and a split inside a split", () => {
    const decode = Schema.decodeUnknownEither(Timeline)
    expect(Either.isLeft(decode({ ...timeline, width: 1081 }))).toBe(true)
    expect(Either.isLeft(decode({ ...timeline, scenes: [] }))).toBe(true)
    const nested = { _tag: "Split", top: timeline.scenes[1]!.visual, bottom: { _tag: "Colour", hex: "#000000" } }
    expect(Either.isLeft(decode({ ...timeline, scenes: [{ durationSeconds: 1, visual: nested, overlays: [] }] }))).toBe(true)
    expect(Either.isRight(decode(timeline))).toBe(true)
  })

  it("lasts as long as its scenes together", () => {
    expect(timelineDuration(timeline)).toBe(3.75)
  })

  it("has output sizes for the three aspect ratios", () => {
    expect(ASPECT_SIZES).toEqual({
      "9:16": { width: 1080, height: 1920 },
      "16:9": { width: 1920, height: 1080 },
      "1:1": { width: 1080, height: 1080 }
    })
  })
})

describe("scenesForWords", () => {
  const words = spoken("One two three. Four five. Six seven eight nine. Ten.")
  const end = words[words.length - 1]!.end

  it("cuts only between sentences, near equal shares, covering the narration and its tail", () => {
    const spans = scenesForWords(words, 2)
    expect(texts(spans)).toEqual(["One two three. Four five.", "Six seven eight nine. Ten."])
    expect(spans[0]!.startSeconds).toBe(0)
    expect(spans[1]!.startSeconds).toBe(words[5]!.start)
    expect(spans[0]!.durationSeconds).toBeCloseTo(words[5]!.start, 9)
    expect(total(spans)).toBeCloseTo(end + NARRATION_TAIL_SECONDS, 9)
  })

  it("each scene starts at its first sentence and lasts until the next scene starts", () => {
    const spans = scenesForWords(words, 3)
    // thirds of 5.6 s: cuts at 1.87 and 3.73 land on the sentence starts nearest them, 1.6 and 2.8
    expect(texts(spans)).toEqual(["One two three.", "Four five.", "Six seven eight nine. Ten."])
    spans.forEach((span, i) => {
      const next = spans[i + 1]
      if (i > 0) expect(span.startSeconds).toBe(span.words[0]!.start)
      expect(span.startSeconds + span.durationSeconds).toBeCloseTo(next?.startSeconds ?? end + NARRATION_TAIL_SECONDS, 9)
      expect(span.startSeconds + span.durationSeconds).toBeGreaterThanOrEqual(span.words[span.words.length - 1]!.end)
    })
  })

  it("gives at most one scene a sentence and keeps every word once, in order", () => {
    const spans = scenesForWords(words, 10)
    expect(texts(spans)).toEqual(["One two three.", "Four five.", "Six seven eight nine.", "Ten."])
    expect(spans.flatMap((s) => s.words)).toEqual(words)
  })

  it("one scene or text without sentence ends: one scene of everything", () => {
    expect(texts(scenesForWords(words, 1))).toEqual(["One two three. Four five. Six seven eight nine. Ten."])
    const plain = spoken("no stops at all here")
    expect(texts(scenesForWords(plain, 3))).toEqual(["no stops at all here"])
  })

  it("runs on to audio longer than the words, with the tail asked for", () => {
    const spans = scenesForWords(words, 2, { narrationSeconds: end + 1, tailSeconds: 0.25 })
    expect(total(spans)).toBeCloseTo(end + 1.25, 9)
  })

  it("no words or no scenes: nothing", () => {
    expect(scenesForWords([], 3)).toEqual([])
    expect(scenesForWords(words, 0)).toEqual([])
  })
})
