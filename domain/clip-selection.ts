// Choosing short clips out of a long talk: its words are cut into sentences (at end punctuation, or at a
// pause where the recogniser writes none), every run of whole sentences within the length bounds is a
// candidate, each candidate is scored on what makes a short stand alone (speech with little dead air, a
// question and its answer, numbers, strong words, a first line that hooks and does not lean on what came
// before), and the best that do not overlap are kept. Pure: a 60-minute transcript is scored in
// milliseconds.
import { Schema } from "effect"

/** A word as the recogniser timed it, in seconds of the source. */
export interface SpokenWord {
  readonly text: string
  readonly start: number
  readonly end: number
}

export const MIN_CLIP_SECONDS = 5
export const MAX_CLIP_SECONDS = 300
export const MAX_CLIP_COUNT = 20

export const ClipCount = Schema.Int.pipe(Schema.between(1, MAX_CLIP_COUNT)).annotations({
  description: `How many clips to make at most, 1-${MAX_CLIP_COUNT}; fewer when the talk has fewer stretches of the length asked. Default 5.`
})
const ClipSeconds = (which: string, fallback: number) =>
  Schema.Number.pipe(Schema.between(MIN_CLIP_SECONDS, MAX_CLIP_SECONDS)).annotations({
    description: `The ${which} length of a clip in seconds, ${MIN_CLIP_SECONDS}-${MAX_CLIP_SECONDS}. Default ${fallback}.`
  })
export const MinClipSeconds = ClipSeconds("shortest", 15)
export const MaxClipSeconds = ClipSeconds("longest", 60)

export interface ClipBounds {
  readonly count: number
  readonly minSeconds: number
  readonly maxSeconds: number
}

export const DEFAULT_CLIP_BOUNDS: ClipBounds = { count: 5, minSeconds: 15, maxSeconds: 60 }

/** The bounds asked, refused with the field to name when the shortest is not below the longest by a margin. */
export const clipBoundsRefusal = (bounds: ClipBounds): { readonly field: string; readonly message: string } | null =>
  bounds.maxSeconds < bounds.minSeconds + 5
    ? { field: "maxSeconds", message: `maxSeconds (${bounds.maxSeconds}) must be at least minSeconds (${bounds.minSeconds}) plus 5 seconds` }
    : null

/** A gap between words at least this long ends a sentence where the words carry no punctuation (pocketsphinx writes none). */
export const SENTENCE_PAUSE_SECONDS = 0.45
/** Silence kept before a clip's first word and after its last, at most (never reaching into a neighbour word). */
const LEAD_SECONDS = 0.2
const TAIL_SECONDS = 0.4

export interface Sentence {
  /** Indices into the words, inclusive. */
  readonly first: number
  readonly last: number
  readonly start: number
  readonly end: number
}

const ENDS_SENTENCE = /[.?!…]["'”’)\]]*$/

/** The words cut into sentences: after end punctuation, at a long pause, and at the last word. */
export const sentencesOf = (words: ReadonlyArray<SpokenWord>): ReadonlyArray<Sentence> => {
  const sentences: Array<Sentence> = []
  let first = 0
  words.forEach((word, i) => {
    const next = words[i + 1]
    if (next !== undefined && !ENDS_SENTENCE.test(word.text) && next.start - word.end < SENTENCE_PAUSE_SECONDS) return
    sentences.push({ first, last: i, start: words[first]!.start, end: word.end })
    first = i + 1
  })
  return sentences
}

/** Why a candidate scored as it did, in words a person reads. */
export const ClipReason = Schema.Literal(
  "dense speech",
  "question and answer",
  "numbers",
  "strong words",
  "strong first line"
).annotations({
  description:
    "What raised the clip's score: `dense speech` (little dead air), `question and answer` (a question the clip goes on to answer), " +
    "`numbers`, `strong words` (words of feeling or emphasis), `strong first line` (a short opening that hooks)."
})
export type ClipReason = typeof ClipReason.Type

const QUESTION_OPENERS = new Set([
  "what", "why", "how", "who", "whom", "whose", "when", "where", "which", "do", "does", "did", "is", "are", "was", "were",
  "can", "could", "would", "should", "will", "have", "has", "ever", "isn't", "aren't", "don't", "doesn't"
])
const NUMBER_WORDS = new Set([
  "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen",
  "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty",
  "ninety", "hundred", "thousand", "million", "billion", "percent", "half", "twice", "double", "triple", "first", "second", "third"
])
const STRONG_WORDS = new Set([
  "amazing", "incredible", "awesome", "love", "loved", "hate", "hated", "best", "worst", "never", "always", "secret", "secrets",
  "mistake", "mistakes", "wrong", "truth", "true", "false", "crazy", "huge", "massive", "important", "free", "fear", "afraid",
  "happy", "sad", "angry", "beautiful", "dangerous", "terrible", "horrible", "perfect", "powerful", "shocking", "surprising",
  "surprised", "remember", "stop", "must", "biggest", "greatest", "fail", "failed", "failure", "success", "win", "won", "lost",
  "money", "rich", "poor", "dead", "death", "alive", "problem", "problems", "easy", "hard", "simple", "every", "nobody", "everyone",
  "really", "absolutely", "totally", "exactly", "wonderful", "brilliant", "disaster", "risk", "hidden", "proven", "real"
])
/** A clip opening with these leans on what came before it: "And then…", "Because of that…". */
const LEANING_OPENERS = new Set([
  "and", "but", "so", "because", "or", "then", "also", "which", "that", "it", "this", "they", "he", "she", "those", "these",
  "however", "therefore", "anyway", "plus", "although", "though", "too"
])

const bare = (text: string): string => text.toLowerCase().replace(/^[^\p{L}\p{N}']+|[^\p{L}\p{N}']+$/gu, "")

const isNumber = (text: string): boolean => /\d/.test(text) || NUMBER_WORDS.has(bare(text))

const isQuestion = (words: ReadonlyArray<SpokenWord>, sentence: Sentence): boolean =>
  words[sentence.last]!.text.trimEnd().endsWith("?") || QUESTION_OPENERS.has(bare(words[sentence.first]!.text))

/** A run of whole sentences within the bounds, with its score (0-100) and what raised it. */
export interface ClipCandidate {
  /** Indices into the words, inclusive. */
  readonly first: number
  readonly last: number
  /** Where the clip starts and ends in the source, in seconds, with a little of the silence around it. */
  readonly startSeconds: number
  readonly endSeconds: number
  readonly score: number
  readonly reasons: ReadonlyArray<ClipReason>
  /** Its first sentence, as a person would title it. */
  readonly firstLine: string
}

const clamp01 = (n: number): number => Math.min(1, Math.max(0, n))

/** Running totals over the words and sentences, so that any run's features are a difference: a talk's candidates are scored in linear time. */
const totalsOf = (words: ReadonlyArray<SpokenWord>, sentences: ReadonlyArray<Sentence>) => {
  const spoken = [0]
  const numbers = [0]
  const strong = [0]
  words.forEach((w, i) => {
    spoken.push(spoken[i]! + Math.max(0, w.end - w.start))
    numbers.push(numbers[i]! + (isNumber(w.text) ? 1 : 0))
    strong.push(strong[i]! + (STRONG_WORDS.has(bare(w.text)) ? 1 : 0))
  })
  const questions = [0]
  sentences.forEach((sentence, k) => questions.push(questions[k]! + (isQuestion(words, sentence) ? 1 : 0)))
  // What a run's first sentence brings: whether it leans on what came before, and whether it hooks.
  const openings = sentences.map((head) => {
    const opening = words.slice(head.first, head.last + 1)
    const leans = LEANING_OPENERS.has(bare(opening[0]!.text))
    const hooks = opening.length <= 14 && (
      isQuestion(words, head) || opening.some((w) => isNumber(w.text) || STRONG_WORDS.has(bare(w.text)) || bare(w.text) === "you")
    )
    return { leans, firstLine: !leans && hooks ? 1 : leans ? 0 : 0.4, text: clipText(words, head) }
  })
  return { spoken, numbers, strong, questions, openings }
}

/** The offline score of the run of sentences i..j, from its own words only. */
const scoreOf = (totals: ReturnType<typeof totalsOf>, sentences: ReadonlyArray<Sentence>, i: number, j: number) => {
  const head = sentences[i]!
  const tail = sentences[j]!
  const span = Math.max(0.001, tail.end - head.start)
  const count = tail.last + 1 - head.first
  const between = (sums: ReadonlyArray<number>) => sums[tail.last + 1]! - sums[head.first]!
  // Share of the span with a word being said; 0.85 and more is dense speech.
  const density = clamp01(between(totals.spoken) / span / 0.85)
  // A question in any sentence but the last is answered within the run.
  const answered = totals.questions[j]! - totals.questions[i]! > 0
  const numbers = clamp01(between(totals.numbers) / 3)
  const strong = clamp01(between(totals.strong) / Math.max(2, count / 20))
  const { firstLine, leans } = totals.openings[i]!
  const raw = 0.25 * density + 0.2 * (answered ? 1 : 0) + 0.15 * numbers + 0.15 * strong + 0.25 * firstLine - (leans ? 0.15 : 0)
  const reasons: Array<ClipReason> = []
  if (density >= 0.9) reasons.push("dense speech")
  if (answered) reasons.push("question and answer")
  if (numbers > 0) reasons.push("numbers")
  if (strong >= 0.5) reasons.push("strong words")
  if (firstLine === 1) reasons.push("strong first line")
  return { score: Math.round(100 * clamp01(raw)), reasons }
}

/** Every run of whole sentences whose length is within the bounds, scored. */
export const clipCandidates = (
  words: ReadonlyArray<SpokenWord>,
  bounds: Pick<ClipBounds, "minSeconds" | "maxSeconds">,
  durationSeconds: number
): ReadonlyArray<ClipCandidate> => {
  const sentences = sentencesOf(words)
  const totals = totalsOf(words, sentences)
  const candidates: Array<ClipCandidate> = []
  for (let i = 0; i < sentences.length; i++) {
    const head = sentences[i]!
    const startSeconds = Math.max(0, words[head.first - 1]?.end ?? 0, head.start - LEAD_SECONDS)
    for (let j = i; j < sentences.length; j++) {
      const tail = sentences[j]!
      const endSeconds = Math.min(durationSeconds, words[tail.last + 1]?.start ?? durationSeconds, tail.end + TAIL_SECONDS)
      const length = endSeconds - startSeconds
      if (length > bounds.maxSeconds) break
      if (length < bounds.minSeconds) continue
      candidates.push({
        first: head.first,
        last: tail.last,
        startSeconds,
        endSeconds,
        ...scoreOf(totals, sentences, i, j),
        firstLine: totals.openings[i]!.text
      })
    }
  }
  return candidates
}

/** The best candidates that do not overlap, at most `count`, best first (ties: the earlier, then the longer). */
export const pickClips = (candidates: ReadonlyArray<ClipCandidate>, count: number): ReadonlyArray<ClipCandidate> => {
  const ranked = [...candidates].sort((a, b) =>
    b.score - a.score || a.startSeconds - b.startSeconds || (b.endSeconds - b.startSeconds) - (a.endSeconds - a.startSeconds))
  const kept: Array<ClipCandidate> = []
  for (const candidate of ranked) {
    if (kept.length >= count) break
    if (kept.every((k) => candidate.endSeconds <= k.startSeconds || candidate.startSeconds >= k.endSeconds)) kept.push(candidate)
  }
  return kept
}

/** The clip's own words, timed from its start. */
export const wordsOfClip = <W extends SpokenWord>(words: ReadonlyArray<W>, clip: Pick<ClipCandidate, "first" | "last" | "startSeconds">): ReadonlyArray<W> =>
  words.slice(clip.first, clip.last + 1).map((w) => ({ ...w, start: w.start - clip.startSeconds, end: w.end - clip.startSeconds }))

/** The clip's words as one text, as a reader (or a chat model) reads it. */
export const clipText = (words: ReadonlyArray<SpokenWord>, clip: Pick<ClipCandidate, "first" | "last">): string =>
  words.slice(clip.first, clip.last + 1).map((w) => w.text).join(" ")
