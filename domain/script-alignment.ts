// Aligning a user's script to its audio, the rules: which of the script's words a recogniser heard
// (the longest common subsequence of spoken words), whether the script is of this audio at all, and
// how the audio is cut into spans short enough to align each against its own part of the script.
import type { TimedWord } from "./captions.ts"
import { spokenForms } from "./spoken-forms.ts"
import type { WordMark } from "./spoken-words.ts"
import type { ScriptCue } from "./transcript.ts"

/** A stretch of audio (seconds) and the script's words said in it, as indexes into the script's words. */
export interface ScriptSpan {
  readonly start: number
  readonly end: number
  readonly firstWord: number
  /** Exclusive. */
  readonly endWord: number
}

/**
 * The pairs (index in `a`, index in `b`) of a longest common subsequence, in order (Hunt and
 * Szymanski: time grows with the pairs of equal words, not with the product of the lengths).
 */
export const commonSubsequence = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): ReadonlyArray<readonly [number, number]> => {
  const positions = new Map<string, Array<number>>()
  b.forEach((word, j) => {
    const list = positions.get(word)
    if (list === undefined) positions.set(word, [j])
    else list.push(j)
  })
  interface Link {
    readonly i: number
    readonly j: number
    readonly previous: Link | null
  }
  // thresholds[k]: the smallest index in b that ends a common subsequence of length k + 1.
  const thresholds: Array<number> = []
  const links: Array<Link> = []
  a.forEach((word, i) => {
    const list = positions.get(word) ?? []
    for (let p = list.length - 1; p >= 0; p--) {
      const j = list[p]!
      let low = 0
      let high = thresholds.length
      while (low < high) {
        const mid = (low + high) >> 1
        if (thresholds[mid]! < j) low = mid + 1
        else high = mid
      }
      if (low === thresholds.length || thresholds[low]! > j) {
        thresholds[low] = j
        links[low] = { i, j, previous: low === 0 ? null : links[low - 1]! }
      }
    }
  })
  const pairs: Array<readonly [number, number]> = []
  for (let link = links.at(-1) ?? null; link !== null; link = link.previous) pairs.push([link.i, link.j])
  return pairs.reverse()
}

/** Spoken tokens of a list of written words, each with the index of the word it came from. */
const tokensOf = (words: ReadonlyArray<string>) =>
  words.flatMap((word, index) => spokenForms(word).map((token) => ({ token, index })))

/** Where a heard word lies in the script: its index, and the times the recogniser gave it. */
export interface Anchor {
  readonly word: number
  readonly heard: number
  readonly start: number
  readonly end: number
}

export interface ScriptMatch {
  /** Share of the script's spoken words the recogniser heard in order, 0-1. */
  readonly heardShare: number
  /** Script words whose every spoken token was heard, with the heard word's times. */
  readonly anchors: ReadonlyArray<Anchor>
  readonly scriptTokens: number
}

/**
 * What a recogniser heard of a script. Only matches inside a run of two or more words in a row anchor a
 * word: two unrelated English texts share a scattering of "the", "a" and "of", seldom two in a row.
 */
export const matchScript = (script: ReadonlyArray<string>, heard: ReadonlyArray<TimedWord>): ScriptMatch => {
  const scriptTokens = tokensOf(script)
  const heardTokens = tokensOf(heard.map((w) => w.text))
  const pairs = commonSubsequence(scriptTokens.map((t) => t.token), heardTokens.map((t) => t.token))
  const inRun = pairs.filter(([i, j], k) => {
    const adjacent = (p: readonly [number, number] | undefined, di: number) => p !== undefined && p[0] === i + di && p[1] === j + di
    return adjacent(pairs[k - 1], -1) || adjacent(pairs[k + 1], 1)
  })
  const matchedTokens = new Map<number, number>()
  const heardOf = new Map<number, number>()
  for (const [i, j] of inRun) {
    const word = scriptTokens[i]!.index
    matchedTokens.set(word, (matchedTokens.get(word) ?? 0) + 1)
    if (!heardOf.has(word)) heardOf.set(word, heardTokens[j]!.index)
  }
  const anchors: Array<Anchor> = []
  for (const [word, count] of matchedTokens) {
    const said = spokenForms(script[word]!).length
    const h = heardOf.get(word)!
    if (count === said) anchors.push({ word, heard: h, start: heard[h]!.start, end: heard[h]!.end })
  }
  return { heardShare: scriptTokens.length === 0 ? 0 : pairs.length / scriptTokens.length, anchors, scriptTokens: scriptTokens.length }
}

/**
 * Below this share a script is not of this audio. On speech-eval's clips of real read speech (5-13
 * words each) pocketsphinx hears 17-92% of the right script, 1-20% (mean 6%) of another clip's; on
 * festival speech over 90% of the right one. Longer audio separates the two further.
 */
export const MIN_HEARD_SHARE = 0.15

/** Spans are cut near this length: long enough for the recogniser's normalisation, short for its search. */
const SPAN_SECONDS = 20
/** A cue's window reaches into the silence around it by up to this much: cue times are seldom exact. */
const CUE_MARGIN_SECONDS = 0.5

/**
 * Cuts the audio into spans to align one by one. Timed cues (SRT, VTT) are a span each, widened into
 * the gaps beside them; untimed text is cut between two anchors heard one after the other, at the
 * widest silence near every SPAN_SECONDS.
 */
export const scriptSpans = (cues: ReadonlyArray<ScriptCue>, anchors: ReadonlyArray<Anchor>, duration: number): ReadonlyArray<ScriptSpan> => {
  const firsts: Array<number> = []
  cues.reduce((n, cue) => (firsts.push(n), n + cue.words.length), 0)
  if (cues.every((cue) => cue.start !== null && cue.end !== null)) {
    return cues.map((cue, k) => {
      const before = k === 0 ? 0 : (cues[k - 1]!.end! + cue.start!) / 2
      const after = k === cues.length - 1 ? duration : (cue.end! + cues[k + 1]!.start!) / 2
      return {
        start: Math.max(0, Math.min(cue.start!, Math.max(before, cue.start! - CUE_MARGIN_SECONDS))),
        end: Math.min(duration, Math.max(cue.end!, Math.min(after, cue.end! + CUE_MARGIN_SECONDS))),
        firstWord: firsts[k]!,
        endWord: firsts[k]! + cue.words.length
      }
    }).filter((span) => span.end > span.start)
  }
  const total = cues.reduce((n, cue) => n + cue.words.length, 0)
  // Cut candidates: word w heard just before word w + 1, both in order.
  const byWord = new Map(anchors.map((a) => [a.word, a]))
  const cuts = anchors.flatMap((a) => {
    const next = byWord.get(a.word + 1)
    return next !== undefined && next.heard === a.heard + 1 ? [{ word: a.word + 1, at: (a.end + next.start) / 2, gap: next.start - a.end }] : []
  })
  const spans: Array<ScriptSpan> = []
  let start = 0
  let firstWord = 0
  for (;;) {
    const near = cuts.filter((c) => c.word > firstWord && c.at >= start + SPAN_SECONDS / 2 && c.at <= start + SPAN_SECONDS * 1.5)
    const later = cuts.find((c) => c.word > firstWord && c.at > start + SPAN_SECONDS * 1.5)
    const cut = near.length > 0 ? near.reduce((best, c) => (c.gap > best.gap ? c : best)) : later
    if (cut === undefined || duration - cut.at < SPAN_SECONDS / 2) break
    spans.push({ start, end: cut.at, firstWord, endWord: cut.word })
    start = cut.at
    firstWord = cut.word
  }
  spans.push({ start, end: duration, firstWord, endWord: total })
  return spans
}

/**
 * Every script word's mark from its span's (the aligner's answer, span by span). A span the aligner
 * placed nothing of keeps its words inside it: the first starts where it starts, the last ends where it ends.
 */
export const scriptMarks = (spans: ReadonlyArray<ScriptSpan>, marks: ReadonlyArray<ReadonlyArray<WordMark>>): ReadonlyArray<WordMark> =>
  spans.flatMap((span, k) => {
    const own = marks[k] ?? []
    const count = span.endWord - span.firstWord
    if (own.some((mark) => mark.start !== undefined)) return Array.from({ length: count }, (_, i) => own[i] ?? {})
    return Array.from({ length: count }, (_, i): WordMark => ({
      ...(i === 0 ? { start: span.start } : {}),
      ...(i === count - 1 ? { speechEnd: span.end } : {})
    }))
  })
