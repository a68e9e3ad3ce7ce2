// A caption video with the user's own script: the captions show the script's words exactly as written,
// each timed by forced alignment to the audio. What the recogniser heard decides two things first:
// whether the script is of this audio at all (a wrong script fails the video rather than captioning
// nonsense), and where a long untimed script may be cut into spans to align one by one.
import { Effect } from "effect"
import type { TimedWord } from "../../../../domain/captions.ts"
import { WorkFailed } from "../../../../domain/errors.ts"
import { Aligner } from "../../../../domain/ports/aligner.ts"
import { matchScript, MIN_HEARD_SHARE, scriptMarks, scriptSpans } from "../../../../domain/script-alignment.ts"
import { spokenForms } from "../../../../domain/spoken-forms.ts"
import { fillWordTimes } from "../../../../domain/spoken-words.ts"
import { parseTranscript } from "../../../../domain/transcript.ts"
import { withSpan } from "../../../kernel/spans.ts"

export const alignTranscript = (transcript: string, wavPath: string, heard: ReadonlyArray<TimedWord>, durationSeconds: number) =>
  Effect.gen(function*() {
    const parsed = parseTranscript(transcript)
    // Checked at create; a record from before that check is still refused with the reason.
    if (!parsed.ok) return yield* new WorkFailed({ message: `The transcript cannot be read: ${parsed.reason}.` })
    const script = parsed.cues.flatMap((cue) => cue.words)
    const match = matchScript(script, heard)
    yield* Effect.annotateCurrentSpan({ heardShare: match.heardShare, words: script.length, format: parsed.format })
    if (match.heardShare < MIN_HEARD_SHARE) {
      return yield* new WorkFailed({
        message: `The transcript does not match the speech: the recogniser heard ${Math.round(match.heardShare * 100)}% of its words in order, ` +
          `and a transcript of this audio gives well over ${Math.round(MIN_HEARD_SHARE * 100)}%. Check that it belongs to this video ` +
          "and is in the spoken language, or leave `transcript` out to caption what is heard."
      })
    }
    const spans = scriptSpans(parsed.cues, match.anchors, durationSeconds)
    const marks = yield* (yield* Aligner).align(
      wavPath,
      spans.map((span) => ({ start: span.start, end: span.end, words: script.slice(span.firstWord, span.endWord).map(spokenForms) }))
    )
    return fillWordTimes(script, scriptMarks(spans, marks), durationSeconds)
  }).pipe(withSpan("alignTranscript"))
