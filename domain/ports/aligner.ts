import { Context, type Effect } from "effect"
import type { WorkFailed } from "../errors.ts"
import type { WordMark } from "../spoken-words.ts"

/** A stretch of audio (seconds from the start) and the words said in it, each as its spoken forms. */
export interface AlignmentRequest {
  readonly start: number
  readonly end: number
  /** Per written word, what is said (`domain/spoken-forms.ts`); [] for a word that says nothing. */
  readonly words: ReadonlyArray<ReadonlyArray<string>>
}

/**
 * Forced alignment: when each known word is said. Input is a 16 kHz mono WAV. Answers a mark per word of
 * each request, in seconds from the start of the audio; a word it could not place has an empty mark.
 */
export interface AlignerShape {
  readonly align: (wavPath: string, requests: ReadonlyArray<AlignmentRequest>) => Effect.Effect<ReadonlyArray<ReadonlyArray<WordMark>>, WorkFailed>
}
export class Aligner extends Context.Tag("Aligner")<Aligner, AlignerShape>() {}
