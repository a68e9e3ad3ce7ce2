// The spoken languages captions can be made in, by ISO 639-1 code. Whisper's multilingual models (and
// OpenAI's whisper-1) recognise these; English-only models and pocketsphinx recognise English alone.
import { Schema } from "effect"

/** The ISO 639-1 codes of whisper's languages (its tokenizer's list, leaving out codes of three letters). */
export const WHISPER_LANGUAGES: ReadonlyArray<string> = [
  "af", "am", "ar", "as", "az", "ba", "be", "bg", "bn", "bo", "br", "bs", "ca", "cs", "cy", "da", "de", "el", "en",
  "es", "et", "eu", "fa", "fi", "fo", "fr", "gl", "gu", "ha", "he", "hi", "hr", "ht", "hu", "hy", "id", "is", "it",
  "ja", "jw", "ka", "kk", "km", "kn", "ko", "la", "lb", "ln", "lo", "lt", "lv", "mg", "mi", "mk", "ml", "mn", "mr",
  "ms", "mt", "my", "ne", "nl", "nn", "no", "oc", "pa", "pl", "ps", "pt", "ro", "ru", "sa", "sd", "si", "sk", "sl",
  "sn", "so", "sq", "sr", "su", "sv", "sw", "ta", "te", "tg", "th", "tk", "tl", "tr", "tt", "uk", "ur", "uz", "vi",
  "yi", "yo", "zh"
]

export const ENGLISH_ONLY: ReadonlyArray<string> = ["en"]

export const Language = Schema.String.pipe(
  Schema.pattern(/^[a-z]{2}$/, { message: () => "Expected a language as its two-letter ISO 639-1 code, e.g. `en` or `de`" })
).annotations({
  identifier: "Language",
  examples: ["en"],
  description: "The spoken language as its ISO 639-1 code (`en`, `de`, `ja`…). Left out: detected by whisper's multilingual models, English otherwise."
})

/** Why a language cannot be recognised by an engine that knows only `known`; null when it can. */
export const languageRefusal = (language: string, known: ReadonlyArray<string>, engine: string): string | null =>
  known.includes(language)
    ? null
    : known.length === 1
    ? `the service's speech recogniser (${engine}) recognises only ${known[0]}; leave \`language\` out or send \`${known[0]}\``
    : `${language} is not a language the service's speech recogniser (${engine}) knows`
