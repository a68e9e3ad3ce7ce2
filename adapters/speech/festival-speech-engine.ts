// Speech with Debian's festival. The HTS voice (festvox-us-slt-hts) is the most natural offline voice
// here, and festival reports the exact time of every word it spoke, so captions need no recognition.
import { Config, Effect, Option } from "effect"
import { execFile } from "node:child_process"
import { readdir, rm, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { promisify } from "node:util"
import { WorkFailed } from "../../domain/errors.ts"
import type { EngineVoice, SpeechEngineShape } from "../../domain/ports/speech-engine.ts"
import { alignSpokenWords, type SpokenToken } from "../../domain/spoken-words.ts"
import { readWavInfo } from "../media/wav-file.ts"
import { withSpan } from "../../src/kernel/spans.ts"

const run = promisify(execFile)

const ENGINE = "festival"
const VOICES_DIR = "/usr/share/festival/voices"
/** Festival voices from Debian main, by the folder each installs. */
const KNOWN_VOICES: ReadonlyArray<EngineVoice & { readonly folder: string }> = [
  { folder: "cmu_us_slt_arctic_hts", id: "festival-slt", name: "Sally (natural)", language: "en-US", gender: "female" },
  { folder: "kal_diphone", id: "festival-kal", name: "Kal (robotic)", language: "en-US", gender: "male" },
  { folder: "ked_diphone", id: "festival-ked", name: "Ked (robotic)", language: "en-US", gender: "male" },
  { folder: "rab_diphone", id: "festival-rab", name: "Rab (robotic)", language: "en-GB", gender: "male" }
]

/**
 * The text as festival's English front end can take it: accents folded ("café" reads "cafe") and every
 * other non-ASCII character a space. It says nothing for those anyway, and a long run of their bytes
 * overflows its stack (500 emoji, 600 "é"). Word times still come from the original text.
 */
export const festivalText = (text: string): string =>
  text.normalize("NFKD").replace(/\p{M}+/gu, "").replace(/[‘’]/g, "'").replace(/[“”]/g, '"').replace(/[‐-―]/g, "-")
    .replace(/[^\x20-\x7e\n\t]+/g, " ")

/** Festival's own complaint (`SIOD ERROR: ...`) rather than the command line and its paths. */
const festivalError = (error: unknown): string => {
  const stderr = typeof error === "object" && error !== null && "stderr" in error ? String(error.stderr) : ""
  const line = stderr.split("\n").find((l) => /error/i.test(l))?.trim() ?? (error instanceof Error ? error.message : String(error))
  return line.slice(0, 300)
}

const schemeString = (s: string): string => `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`

/**
 * Speaks, saves the wave, then prints one line per spoken word: its token's serial number and text
 * (the token is the written form: "2024" is spoken as three words), start and end.
 */
const script = (folder: string, text: string, wav: string): string =>
  [
    `(voice_${folder})`,
    `(set! utt (utt.synth (Utterance Text ${schemeString(text)})))`,
    `(utt.save.wave utt ${schemeString(wav)} 'riff)`,
    "(set! serial 0)",
    "(mapcar (lambda (tok) (item.set_feat tok \"serial\" serial) (set! serial (+ serial 1))) (utt.relation.items utt 'Token))",
    "(mapcar (lambda (w) (format t \"%s\\t%s\\t%s\\t%s\\n\" (item.feat w \"R:Token.parent.serial\") (item.feat w \"R:Token.parent.name\")",
    "  (item.feat w \"R:SylStructure.daughter1.daughter1.R:Segment.start\")",
    "  (item.feat w \"R:SylStructure.daughtern.daughtern.R:Segment.end\"))) (utt.relation.items utt 'Word))"
  ].join("\n")

/** Festival's word lines, grouped into the written tokens they came from. */
export const parseFestivalTokens = (stdout: string): ReadonlyArray<SpokenToken> => {
  const tokens = new Map<string, { text: string; start: number; end: number }>()
  for (const line of stdout.split("\n")) {
    const [serial, text, start, end] = line.split("\t")
    if (serial === undefined || text === undefined || end === undefined) continue
    const from = Number(start)
    const to = Number(end)
    // A word with no syllables (the "'s" of "Smith's") reports 0 for both: it adds no time.
    if (!Number.isFinite(from) || !Number.isFinite(to) || to <= 0) continue
    const token = tokens.get(serial)
    tokens.set(serial, token === undefined ? { text, start: from, end: to } : { ...token, end: Math.max(token.end, to) })
  }
  return [...tokens.values()]
}

const installedVoices = (voicesDir: string) =>
  Effect.promise(async () => {
    const languages = await readdir(voicesDir).catch(() => [] as Array<string>)
    const folders = (await Promise.all(languages.map((l) => readdir(join(voicesDir, l)).catch(() => [] as Array<string>)))).flat()
    return KNOWN_VOICES.filter((v) => folders.includes(v.folder))
  })

/** Offered when the festival binary and at least one known voice are installed; none otherwise. */
export const makeFestivalSpeechEngine: Effect.Effect<Option.Option<SpeechEngineShape>> = Effect.gen(function*() {
  const binary = yield* Config.string("FESTIVAL_PATH").pipe(Config.withDefault("festival"), Effect.orDie)
  const hasBinary = yield* Effect.promise(() => run(binary, ["--version"]).then(() => true, () => false))
  const voices = hasBinary ? yield* installedVoices(VOICES_DIR) : []
  if (voices.length === 0) return Option.none()
  const folderOf = new Map(voices.map((v) => [v.id, v.folder]))
  return Option.some<SpeechEngineShape>({
    engine: ENGINE,
    voices: voices.map(({ folder: _folder, ...voice }) => voice),
    speak: ({ outputWav, text, voiceId }) =>
      Effect.gen(function*() {
        const folder = folderOf.get(voiceId)
        if (folder === undefined) return yield* new WorkFailed({ message: `festival has no voice ${voiceId}` })
        const scriptPath = `${outputWav}.scm`
        const stdout = yield* Effect.tryPromise({
          try: async () => {
            await writeFile(scriptPath, script(folder, festivalText(text), outputWav))
            try {
              return (await run(binary, ["-b", scriptPath], { maxBuffer: 64 * 1024 * 1024 })).stdout
            } finally {
              await rm(scriptPath, { force: true })
            }
          },
          catch: (error) => new WorkFailed({ message: `festival could not speak the text (${festivalError(error)})` })
        })
        const { durationSeconds } = yield* Effect.tryPromise({
          try: () => readWavInfo(outputWav),
          catch: (error) => new WorkFailed({ message: `festival wrote no usable audio: ${String(error)}` })
        })
        return { durationSeconds, words: alignSpokenWords(text, parseFestivalTokens(stdout), durationSeconds) }
      }).pipe(withSpan("FestivalSpeechEngine.speak", { attributes: { voiceId, characters: text.length } }))
  })
})
