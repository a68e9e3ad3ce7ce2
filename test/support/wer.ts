// Word error rate: word-level Levenshtein distance between a reference and a recognised text.

/** Lowercase words without punctuation (an apostrophe inside a word stays: "don't"). */
export const normaliseWords = (words: ReadonlyArray<string>): Array<string> =>
  words
    .flatMap((w) => w.toLowerCase().split(/\s+/))
    .map((w) => w.replace(/[^\p{L}\p{N}']+/gu, "").replace(/^'+|'+$/g, ""))
    .filter((w) => w.length > 0)

export interface WordErrors {
  /** Substitutions + deletions + insertions. */
  readonly errors: number
  readonly referenceWords: number
  /** errors / referenceWords. */
  readonly rate: number
  /** Index pairs (reference, hypothesis) of the words the best alignment matches exactly. */
  readonly matches: ReadonlyArray<readonly [number, number]>
}

/** Compares already normalised word lists. */
export const wordErrors = (reference: ReadonlyArray<string>, hypothesis: ReadonlyArray<string>): WordErrors => {
  const rows = reference.length + 1
  const cols = hypothesis.length + 1
  const d: Array<Array<number>> = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)))
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const same = reference[i - 1] === hypothesis[j - 1] ? 0 : 1
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + same)
    }
  }
  const matches: Array<readonly [number, number]> = []
  let i = reference.length
  let j = hypothesis.length
  while (i > 0 && j > 0) {
    const same = reference[i - 1] === hypothesis[j - 1]
    if (d[i]![j] === d[i - 1]![j - 1]! + (same ? 0 : 1)) {
      if (same) matches.unshift([i - 1, j - 1])
      i--
      j--
    } else if (d[i]![j] === d[i - 1]![j]! + 1) i--
    else j--
  }
  const errors = d[reference.length]![hypothesis.length]!
  return { errors, referenceWords: reference.length, rate: reference.length === 0 ? 0 : errors / reference.length, matches }
}

export interface StartErrors {
  /** How many words the best alignment matches (the errors are theirs). */
  readonly aligned: number
  /** |recognised start - reference start|, seconds. */
  readonly mean: number
  readonly median: number
  readonly p90: number
  readonly max: number
}

/**
 * How far recognised word starts are from the reference's (festival's own times), over the words the
 * best word alignment matches exactly; undefined when none match.
 */
export const wordStartErrors = (
  reference: ReadonlyArray<{ readonly text: string; readonly start: number }>,
  recognised: ReadonlyArray<{ readonly text: string; readonly start: number }>
): StartErrors | undefined => {
  const words = (timed: typeof reference) => timed.map((w) => normaliseWords([w.text]).join(" "))
  const errors = wordErrors(words(reference), words(recognised)).matches
    .map(([r, h]) => Math.abs(reference[r]!.start - recognised[h]!.start))
    .sort((a, b) => a - b)
  if (errors.length === 0) return undefined
  return {
    aligned: errors.length,
    mean: errors.reduce((a, b) => a + b, 0) / errors.length,
    median: errors[Math.floor(errors.length / 2)]!,
    p90: errors[Math.ceil(0.9 * errors.length) - 1]!,
    max: errors[errors.length - 1]!
  }
}
