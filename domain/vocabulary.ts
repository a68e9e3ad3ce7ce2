// A workspace's vocabulary: names and terms its videos say that a recogniser may not know ("Reelwright",
// "Zorblatt", "GPT-4o"). whisper and the OpenAI-compatible service are told them as a prompt; pocketsphinx,
// whose language model cannot learn a word, has heard words that sound like a term replaced by it.
import { Schema } from "effect"

export const MAX_VOCABULARY_TERMS = 200
const MAX_TERM_CHARACTERS = 64

export const VocabularyTerm = Schema.Trim.pipe(
  Schema.nonEmptyString({ message: () => "A term cannot be blank" }),
  Schema.maxLength(MAX_TERM_CHARACTERS, { message: () => `A term is at most ${MAX_TERM_CHARACTERS} characters` }),
  Schema.pattern(/^[^\p{Cc}]*$/u, { message: () => "A term is one line of text" })
).annotations({ description: "A name or term as it should be written, e.g. `Zorblatt` or `GPT-4o`." })

export const VocabularyTerms = Schema.Array(VocabularyTerm).pipe(
  Schema.maxItems(MAX_VOCABULARY_TERMS, { message: () => `A vocabulary holds at most ${MAX_VOCABULARY_TERMS} terms` })
).annotations({
  description: `Names and terms, at most ${MAX_VOCABULARY_TERMS}; repeats (ignoring case) are kept once.`,
  examples: [["Reelwright", "Kubernetes", "Siobhán"]]
})

/** Each term once, the first spelling kept, in the order given. */
export const distinctTerms = (terms: ReadonlyArray<string>): ReadonlyArray<string> => {
  const seen = new Set<string>()
  return terms.filter((term) => {
    const key = term.toLowerCase()
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

/** The prompt whisper-style engines are given: the terms, comma separated, as a glossary of the speech. */
export const vocabularyPrompt = (terms: ReadonlyArray<string>): string | undefined => (terms.length === 0 ? undefined : `${terms.join(", ")}.`)
