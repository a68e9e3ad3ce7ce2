// SpeechEngine on eSpeak NG compiled to WebAssembly (@echogarden/espeak-ng-emscripten): nothing to
// install, offline, many languages, and word events that say where each word starts in the audio.
// The voice is robotic; it is the engine that always works.
import { writeFile } from "node:fs/promises"
import loadEspeak, { type ESpeakNGWorker, type EspeakEvent } from "@echogarden/espeak-ng-emscripten"
import { Effect } from "effect"
import { WorkFailed } from "../../domain/errors.ts"
import type { EngineVoice, SpeechEngineShape, VoiceGender } from "../../domain/ports/speech-engine.ts"
import { fillWordTimes, type TextWord, textWords, type WordMark, wordIndexAt } from "../../domain/spoken-words.ts"
import { pcmWavHeader } from "../media/wav-file.ts"
import { withSpan } from "../../src/kernel/spans.ts"

interface EspeakVoice extends EngineVoice {
  /** eSpeak's identifier, with `+variant` for a female or male variant. */
  readonly espeak: string
}

/**
 * `slug` is eSpeak's identifier without its family folder, in lower case, `+` as `-` (stable and
 * URL-safe), except that plain `gmw/en` is British English and says so: `en-gb`.
 */
const voice = (slug: string, espeak: string, name: string, language: string, gender: VoiceGender = "neutral"): EspeakVoice => ({
  id: `espeak-ng-${slug}`,
  name,
  language,
  gender,
  espeak
})

/**
 * A curated few of eSpeak's 140 voices: English variants, then one voice for each major language.
 * The plain American voice comes first: the variants only shift its pitch and timbre, and the plain
 * one is the clearest. Japanese is left out: eSpeak reads kanji as "Chinese letter".
 */
const VOICES: ReadonlyArray<EspeakVoice> = [
  voice("en-us", "gmw/en-US", "English (America)", "en-US"),
  voice("en-us-f3", "gmw/en-US+f3", "English (America), female", "en-US", "female"),
  voice("en-us-m3", "gmw/en-US+m3", "English (America), male", "en-US", "male"),
  voice("en-gb", "gmw/en", "English (Great Britain)", "en-GB"),
  voice("en-gb-f3", "gmw/en+f3", "English (Great Britain), female", "en-GB", "female"),
  voice("en-gb-x-rp", "gmw/en-GB-x-rp", "English (Received Pronunciation)", "en-GB"),
  voice("en-gb-scotland", "gmw/en-GB-scotland", "English (Scotland)", "en-GB"),
  voice("en-029", "gmw/en-029", "English (Caribbean)", "en-029"),
  voice("es", "roa/es", "Spanish (Spain)", "es-ES"),
  voice("es-419", "roa/es-419", "Spanish (Latin America)", "es-419"),
  voice("fr", "roa/fr", "French (France)", "fr-FR"),
  voice("de", "gmw/de", "German", "de-DE"),
  voice("it", "roa/it", "Italian", "it-IT"),
  voice("pt-br", "roa/pt-BR", "Portuguese (Brazil)", "pt-BR"),
  voice("pt", "roa/pt", "Portuguese (Portugal)", "pt-PT"),
  voice("nl", "gmw/nl", "Dutch", "nl-NL"),
  voice("pl", "zlw/pl", "Polish", "pl-PL"),
  voice("ru", "zle/ru", "Russian", "ru-RU"),
  voice("uk", "zle/uk", "Ukrainian", "uk-UA"),
  voice("sv", "gmq/sv", "Swedish", "sv-SE"),
  voice("da", "gmq/da", "Danish", "da-DK"),
  voice("nb", "gmq/nb", "Norwegian Bokmål", "nb-NO"),
  voice("fi", "urj/fi", "Finnish", "fi-FI"),
  voice("cs", "zlw/cs", "Czech", "cs-CZ"),
  voice("hu", "urj/hu", "Hungarian", "hu-HU"),
  voice("ro", "roa/ro", "Romanian", "ro-RO"),
  voice("el", "grk/el", "Greek", "el-GR"),
  voice("tr", "trk/tr", "Turkish", "tr-TR"),
  voice("ar", "sem/ar", "Arabic", "ar"),
  voice("he", "sem/he", "Hebrew", "he-IL"),
  voice("hi", "inc/hi", "Hindi", "hi-IN"),
  voice("bn", "inc/bn", "Bengali", "bn"),
  voice("ta", "dra/ta", "Tamil", "ta-IN"),
  voice("id", "poz/id", "Indonesian", "id-ID"),
  voice("ms", "poz/ms", "Malay", "ms-MY"),
  voice("vi", "aav/vi", "Vietnamese", "vi-VN"),
  voice("th", "tai/th", "Thai", "th-TH"),
  voice("cmn", "sit/cmn", "Chinese (Mandarin)", "zh-CN"),
  voice("yue", "sit/yue", "Chinese (Cantonese)", "yue-HK"),
  voice("ko", "ko", "Korean", "ko-KR")
]

interface Synthesis {
  readonly samples: Int16Array
  readonly sampleRate: number
  readonly events: ReadonlyArray<EspeakEvent>
}

const failed = (message: string) => new WorkFailed({ message })

/**
 * Choosing the voice and synthesising run in one synchronous block, so two calls never interleave on
 * the shared module and need no lock; the block holds the event loop for about 5 ms a word.
 */
const synthesize = (worker: ESpeakNGWorker, voice: EspeakVoice, text: string) =>
  Effect.try({
    try: (): Synthesis | undefined => {
      if (worker.set_voice(voice.espeak) !== 0) return undefined
      const chunks: Array<Int16Array> = []
      const events: Array<EspeakEvent> = []
      worker.synthesize(text, (samples, chunkEvents) => {
        chunks.push(samples)
        events.push(...chunkEvents)
        return false
      })
      const samples = new Int16Array(chunks.reduce((total, chunk) => total + chunk.length, 0))
      chunks.reduce((offset, chunk) => {
        samples.set(chunk, offset)
        return offset + chunk.length
      }, 0)
      return { samples, sampleRate: worker.get_samplerate(), events }
    },
    catch: (error) => failed(`eSpeak NG could not speak the text: ${error instanceof Error ? error.message : String(error)}`)
  }).pipe(
    Effect.filterOrFail(
      (synthesis): synthesis is Synthesis => synthesis !== undefined,
      () => failed(`eSpeak NG could not load its voice ${voice.espeak} (for ${voice.id}).`)
    )
  )

/**
 * Start and speech end of each of the text's words, from eSpeak's events. A word event points at the
 * text (1-based, in code points); a word a number splits into pieces ("3:45") keeps its first start.
 * A pause is a phoneme with no name: a run of them before the next word is silence after this one.
 */
const wordMarks = (text: string, words: ReadonlyArray<TextWord>, events: ReadonlyArray<EspeakEvent>): Array<WordMark> => {
  const codeUnitAt: Array<number> = []
  let units = 0
  for (const character of text) {
    codeUnitAt.push(units)
    units += character.length
  }
  const marks: Array<{ start?: number; speechEnd?: number }> = words.map(() => ({}))
  let current: { start?: number; speechEnd?: number } | undefined
  for (const event of events) {
    const seconds = event.audio_position / 1000
    if (event.type === "word") {
      const index = wordIndexAt(words, codeUnitAt[event.text_position - 1] ?? text.length)
      current = index === undefined ? undefined : marks[index]
      if (current !== undefined) current.start ??= seconds
    } else if (event.type === "phoneme" && current !== undefined) {
      if (event.id !== "") delete current.speechEnd
      else current.speechEnd ??= seconds
    }
  }
  return marks
}

const writeWav = (path: string, synthesis: Synthesis) => {
  const pcm = Buffer.alloc(synthesis.samples.length * 2)
  synthesis.samples.forEach((sample, i) => pcm.writeInt16LE(sample, i * 2))
  return Effect.tryPromise({
    try: () => writeFile(path, Buffer.concat([pcmWavHeader(synthesis.samples.length, synthesis.sampleRate), pcm])),
    catch: (error) => failed(`Could not write the speech to ${path}: ${error instanceof Error ? error.message : String(error)}`)
  })
}

/** The engine; the WebAssembly module (24 MB of voice data) loads on the first `speak` and is kept. */
export const makeEspeakSpeechEngine: Effect.Effect<SpeechEngineShape, WorkFailed> = Effect.map(
  Effect.cached(
    Effect.tryPromise({
      try: async () => new (await loadEspeak()).eSpeakNGWorker(),
      catch: (error) => failed(`eSpeak NG did not start: ${error instanceof Error ? error.message : String(error)}`)
    })
  ),
  (loadWorker): SpeechEngineShape => ({
    engine: "espeak-ng",
    voices: VOICES.map(({ espeak: _, ...engineVoice }) => engineVoice),
    speak: ({ text, voiceId, outputWav }) =>
      Effect.gen(function*() {
        const chosen = VOICES.find((v) => v.id === voiceId)
        if (chosen === undefined) {
          return yield* failed(`eSpeak NG has no voice ${voiceId}: choose one it lists, such as ${VOICES[0]!.id}.`)
        }
        const words = textWords(text)
        if (words.length === 0) return yield* failed("There is no text to speak: the text is empty.")
        const synthesis = yield* synthesize(yield* loadWorker, chosen, text)
        yield* writeWav(outputWav, synthesis)
        const durationSeconds = synthesis.samples.length / synthesis.sampleRate
        return {
          durationSeconds,
          words: fillWordTimes(words.map((w) => w.text), wordMarks(text, words, synthesis.events), durationSeconds)
        }
      }).pipe(withSpan("EspeakSpeechEngine.speak"))
  })
)
