// Choosing clips from a transcript: sentences cut at punctuation and pauses, candidates only of whole
// sentences within the bounds, scored on what makes a short stand alone, the best kept without overlap;
// and the clips record's state machine.
import { Either } from "effect"
import { describe, expect, it } from "vitest"
import {
  clipBoundsRefusal,
  clipCandidates,
  pickClips,
  sentencesOf,
  type SpokenWord,
  wordsOfClip
} from "../../domain/clip-selection.ts"
import { applyClipsEvent, type ClipsRecord, clipsTransition, newClips } from "../../domain/clips.ts"

/** Sentences spoken one after another: 0.3 s a word, `gap` seconds between sentences. */
const talk = (sentences: ReadonlyArray<string>, gap = 0.8, punctuate = false): Array<SpokenWord> => {
  const words: Array<SpokenWord> = []
  let at = 0.5
  for (const sentence of sentences) {
    const parts = sentence.split(" ")
    parts.forEach((text, i) => {
      const last = i === parts.length - 1
      words.push({ text: punctuate || !last ? text : text.replace(/[.?!]$/, ""), start: at, end: at + 0.28 })
      at += 0.3
    })
    at += gap
  }
  return words
}

const flat = "the report was filed on the usual form by the office staff in the afternoon"
const sentenceEnds = (words: ReadonlyArray<SpokenWord>) => new Set(sentencesOf(words).map((s) => s.last))
const sentenceStarts = (words: ReadonlyArray<SpokenWord>) => new Set(sentencesOf(words).map((s) => s.first))

describe("sentences", () => {
  it("end at end punctuation even without a pause, and at a pause where there is no punctuation", () => {
    const punctuated = talk(["Why do boats leave at six?", "Because the tide turns."], 0.05, true)
    expect(sentencesOf(punctuated).map((s) => [s.first, s.last])).toEqual([[0, 5], [6, 9]])
    const bare = talk(["why do boats leave at six", "because the tide turns"], 0.6)
    expect(sentencesOf(bare).map((s) => [s.first, s.last])).toEqual([[0, 5], [6, 9]])
    // A short breath inside a sentence does not end it.
    const breath = talk(["why do boats leave at six", "because the tide turns"], 0.2)
    expect(sentencesOf(breath)).toHaveLength(1)
  })
})

describe("clip candidates", () => {
  const words = talk(Array.from({ length: 30 }, (_, i) => `${flat} number ${i}`))
  const duration = words.at(-1)!.end + 1

  it("are whole sentences within the bounds, with a little silence kept around, never a neighbour's word", () => {
    const candidates = clipCandidates(words, { minSeconds: 15, maxSeconds: 30 }, duration)
    expect(candidates.length).toBeGreaterThan(10)
    const ends = sentenceEnds(words)
    const starts = sentenceStarts(words)
    for (const c of candidates) {
      expect(starts.has(c.first)).toBe(true)
      expect(ends.has(c.last)).toBe(true)
      expect(c.endSeconds - c.startSeconds).toBeGreaterThanOrEqual(15)
      expect(c.endSeconds - c.startSeconds).toBeLessThanOrEqual(30)
      expect(c.startSeconds).toBeGreaterThanOrEqual(words[c.first - 1]?.end ?? 0)
      expect(c.startSeconds).toBeLessThanOrEqual(words[c.first]!.start)
      expect(c.startSeconds).toBeGreaterThan(words[c.first]!.start - 0.5)
      expect(c.endSeconds).toBeLessThanOrEqual(words[c.last + 1]?.start ?? duration)
      expect(c.endSeconds).toBeGreaterThanOrEqual(words[c.last]!.end)
      expect(c.endSeconds).toBeLessThan(words[c.last]!.end + 0.5)
    }
  })

  it("are none when no run of sentences fits the bounds", () => {
    expect(clipCandidates(words, { minSeconds: 1, maxSeconds: 4 }, duration)).toEqual([])
  })
})

describe("picking clips", () => {
  it("keeps the best that do not overlap, best first, at most `count`", () => {
    const words = talk(Array.from({ length: 40 }, () => flat))
    const duration = words.at(-1)!.end + 1
    const picked = pickClips(clipCandidates(words, { minSeconds: 20, maxSeconds: 40 }, duration), 4)
    expect(picked).toHaveLength(4)
    for (let i = 0; i < picked.length; i++) {
      for (let j = i + 1; j < picked.length; j++) {
        const [a, b] = [picked[i]!, picked[j]!]
        expect(a.endSeconds <= b.startSeconds || b.endSeconds <= a.startSeconds).toBe(true)
        expect(a.score).toBeGreaterThanOrEqual(b.score)
      }
    }
  })

  it("scores a question answered, numbers, strong words and a hooking first line above flat speech", () => {
    const hooked = [
      "why do you never see baby pigeons?",
      "the answer is simple and surprising.",
      "they stay in the nest for forty days.",
      "by then they look like adults.",
      "that is the secret."
    ]
    const words = talk([...Array.from({ length: 12 }, () => flat), ...hooked, ...Array.from({ length: 12 }, () => flat)], 0.8, true)
    const duration = words.at(-1)!.end + 1
    const [best] = pickClips(clipCandidates(words, { minSeconds: 10, maxSeconds: 25 }, duration), 1)
    expect(best!.firstLine).toBe("why do you never see baby pigeons?")
    expect(best!.reasons).toEqual(expect.arrayContaining(["question and answer", "numbers", "strong words", "strong first line"]))
    const flatOnly = pickClips(clipCandidates(talk(Array.from({ length: 30 }, () => flat), 0.8, true), { minSeconds: 10, maxSeconds: 25 }, duration), 1)[0]!
    expect(best!.score).toBeGreaterThan(flatOnly.score + 30)
  })

  it("scores a clip opening on a word that leans on what came before below the same clip opening cleanly", () => {
    const clean = talk(["the harbour opens at six.", ...Array.from({ length: 6 }, () => `${flat}.`)], 0.8, true)
    const leaning = talk(["and the harbour opens at six.", ...Array.from({ length: 6 }, () => `${flat}.`)], 0.8, true)
    const first = (words: Array<SpokenWord>) => clipCandidates(words, { minSeconds: 10, maxSeconds: 60 }, 100).find((c) => c.first === 0)!
    expect(first(leaning).score).toBeLessThan(first(clean).score)
  })

  it("gives each clip its own words, timed from its start", () => {
    const words = talk(["a b c", "d e f"])
    expect(wordsOfClip(words, { first: 3, last: 5, startSeconds: words[3]!.start - 0.2 }).map((w) => [w.text, +w.start.toFixed(3)])).toEqual([
      ["d", 0.2],
      ["e", 0.5],
      ["f", 0.8]
    ])
  })

  it("refuses a longest clip not 5 s above the shortest, naming maxSeconds", () => {
    expect(clipBoundsRefusal({ count: 3, minSeconds: 30, maxSeconds: 32 })?.field).toBe("maxSeconds")
    expect(clipBoundsRefusal({ count: 3, minSeconds: 30, maxSeconds: 35 })).toBeNull()
  })
})

describe("the clips record", () => {
  const at = "2025-01-01T00:00:00.000Z"
  const fresh = newClips({
    id: "c1",
    workspaceId: "w1",
    source: { fileId: "f1" },
    webhookUrl: null,
    options: { count: 2, minSeconds: 15, maxSeconds: 60, reframe: null, templateId: -1, render: null, language: null },
    at
  })
  const chosen = { startSeconds: 1, endSeconds: 20, score: 50, reasons: [], firstLine: "a", words: [] }
  const step = (r: ClipsRecord, e: Parameters<typeof applyClipsEvent>[1]) => Either.getOrThrow(applyClipsEvent(r, e))

  it("completes once every chosen clip has its video, and announces it once", () => {
    const selected = step(fresh, { _tag: "Selected", clips: [chosen, { ...chosen, startSeconds: 30, endSeconds: 50 }], at })
    expect(Either.isLeft(applyClipsEvent(selected, { _tag: "Completed", at }))).toBe(true)
    const one = step(selected, { _tag: "VideoCreated", index: 0, videoId: "v1", at })
    expect(Either.isLeft(applyClipsEvent(one, { _tag: "VideoCreated", index: 0, videoId: "v9", at }))).toBe(true)
    const both = step(one, { _tag: "VideoCreated", index: 1, videoId: "v2", at })
    const done = Either.getOrThrow(clipsTransition(both, { _tag: "Completed", at }))
    expect(done.record.status).toBe("completed")
    expect(done.effects).toEqual([{ _tag: "Emit", event: "clips.completed", dedupeKey: "c1" }])
    expect(Either.isLeft(applyClipsEvent(done.record, { _tag: "Failed", error: "late", refundedCredits: 0, at }))).toBe(true)
  })

  it("takes no more clips than asked, steps only forward, and refunds no more than was charged", () => {
    expect(Either.isLeft(applyClipsEvent(fresh, { _tag: "Selected", clips: [chosen, chosen, chosen], at }))).toBe(true)
    const transcribing = step(fresh, { _tag: "StepStarted", step: "transcribing", at })
    expect(Either.isLeft(applyClipsEvent(transcribing, { _tag: "StepStarted", step: "probing", at }))).toBe(true)
    const charged = step(transcribing, { _tag: "Charged", credits: 3, at })
    expect(Either.isLeft(applyClipsEvent(charged, { _tag: "Failed", error: "x", refundedCredits: 4, at }))).toBe(true)
    const failed = Either.getOrThrow(clipsTransition(charged, { _tag: "Failed", error: "x", refundedCredits: 3, at }))
    expect(failed.record).toMatchObject({ status: "failed", step: "transcribing", refunded: true, refundedCredits: 3 })
    expect(failed.effects).toEqual([{ _tag: "Emit", event: "clips.failed", dedupeKey: "c1" }])
  })
})
