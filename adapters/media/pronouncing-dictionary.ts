// How words are said, as pocketsphinx's phones: its CMU dictionary (alternative pronunciations
// included), and for words it lacks (names, invented words) festival's lexicon and letter-to-sound rules.
import { Effect } from "effect"
import { spawn } from "node:child_process"
import { readFile } from "node:fs/promises"
import { WorkFailed } from "../../domain/errors.ts"

export interface PronouncingSources {
  /** pocketsphinx's dictionary (Debian: cmudict-en-us.dict beside the en-us model). */
  readonly dictionary: string
  readonly festival: string
}

export const DEFAULT_DICTIONARY = "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict"

/** A dictionary key: ASCII lowercase letters and apostrophes ("café" is looked up as "cafe"). */
export const dictionaryKey = (token: string): string | null => {
  const key = token.normalize("NFKD").replace(/\p{M}+/gu, "").toLowerCase()
  return /^[a-z][a-z']*$/.test(key) ? key : null
}

/** Festival's lexicon phones (CMU's, lowercase, with `ax` for the schwa) as pocketsphinx's. */
const FESTIVAL_PHONES = new Set(
  "aa ae ah ao aw ay b ch d dh eh er ey f g hh ih iy jh k l m n ng ow oy p r s sh t th uh uw v w y z zh".split(" ")
)
const sphinxPhone = (phone: string): string | null => (phone === "ax" ? "AH" : FESTIVAL_PHONES.has(phone) ? phone.toUpperCase() : null)

/** Parses festival's `("word" nil (((z ao r) 1) ((b l ax t) 0)))` lines into pocketsphinx pronunciations. */
export const parseLexiconLines = (stdout: string): ReadonlyMap<string, string> => {
  const found = new Map<string, string>()
  for (const line of stdout.split("\n")) {
    const match = /^\("([^"]+)"\s+\S+\s+(.*)\)\s*$/.exec(line.trim())
    if (match === null) continue
    const phones = Array.from(match[2]!.matchAll(/[a-z]+/g), (m) => sphinxPhone(m[0]))
    if (phones.length > 0 && phones.every((p) => p !== null)) found.set(match[1]!, phones.join(" "))
  }
  return found
}

/** Pronunciations festival gives words pocketsphinx's dictionary lacks (keys only); none when festival is missing. */
const festivalPronunciations = (festival: string, words: ReadonlyArray<string>) =>
  words.length === 0
    ? Effect.succeed(new Map<string, string>())
    : Effect.async<ReadonlyMap<string, string>>((resume) => {
      const child = spawn(festival, ["--pipe"], { stdio: ["pipe", "pipe", "ignore"] })
      let out = ""
      child.stdout.on("data", (piece: Buffer) => (out += piece.toString()))
      child.on("error", () => resume(Effect.succeed(new Map())))
      child.on("close", () => resume(Effect.succeed(parseLexiconLines(out))))
      child.stdin.on("error", () => undefined)
      child.stdin.end(['(lex.select "cmu")', ...words.map((w) => `(print (lex.lookup "${w}" nil))`), ""].join("\n"))
      return Effect.sync(() => child.kill("SIGKILL"))
    })

/** The dictionary's entries for `keys` (alternative pronunciations included), read in one pass. */
const dictionaryEntries = (path: string, keys: ReadonlySet<string>) =>
  Effect.tryPromise({
    try: () => readFile(path, "utf8"),
    catch: () => new WorkFailed({ message: `pocketsphinx's pronouncing dictionary is missing at ${path}: install pocketsphinx-en-us or set POCKETSPHINX_DICT.` })
  }).pipe(Effect.map((text) => {
    const entries = new Map<string, Array<string>>()
    for (const line of text.split("\n")) {
      const space = line.indexOf(" ")
      if (space < 0) continue
      const key = line.slice(0, space).replace(/\(\d+\)$/, "")
      if (!keys.has(key)) continue
      const list = entries.get(key) ?? []
      list.push(line.slice(space + 1).trim())
      entries.set(key, list)
    }
    return entries
  }))

/**
 * The pronunciations of `keys` (dictionary keys), each a list of phone strings ("Z AO R B L AH T"), the
 * dictionary's first; a key neither source can say is absent.
 */
export const pronunciations = (sources: PronouncingSources, keys: ReadonlySet<string>) =>
  Effect.gen(function*() {
    const entries = yield* dictionaryEntries(sources.dictionary, keys)
    const guessed = yield* festivalPronunciations(sources.festival, [...keys].filter((k) => !entries.has(k)))
    for (const [word, phones] of guessed) entries.set(word, [phones])
    return entries as ReadonlyMap<string, ReadonlyArray<string>>
  })
