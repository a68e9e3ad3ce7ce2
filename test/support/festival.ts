// Speaks a text with Debian's festival (HTS voice slt) and returns the WAV and the exact word times
// festival itself computed. Tests use it to make spoken clips whose words are known.
import { execFile } from "node:child_process"
import { mkdtemp, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"

const run = promisify(execFile)

export interface SpokenWord {
  readonly text: string
  readonly start: number
  readonly end: number
}

export interface Speech {
  readonly wavPath: string
  readonly words: ReadonlyArray<SpokenWord>
}

const schemeString = (s: string): string => `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`

export const speak = async (text: string, dir?: string): Promise<Speech> => {
  const work = dir ?? (await mkdtemp(join(tmpdir(), "festival-")))
  const wavPath = join(work, `speech-${Math.random().toString(36).slice(2)}.wav`)
  const script = join(work, `speak-${Math.random().toString(36).slice(2)}.scm`)
  await writeFile(
    script,
    [
      "(voice_cmu_us_slt_arctic_hts)",
      `(set! utt (utt.synth (Utterance Text ${schemeString(text)})))`,
      `(utt.save.wave utt ${schemeString(wavPath)} 'riff)`,
      "(mapcar (lambda (w) (format t \"%s %f %f\\n\" (item.name w)",
      "  (item.feat w \"R:SylStructure.daughter1.daughter1.R:Segment.start\")",
      "  (item.feat w \"R:SylStructure.daughtern.daughtern.R:Segment.end\"))) (utt.relation.items utt 'Word))"
    ].join("\n")
  )
  const { stdout } = await run("festival", ["-b", script])
  const words = stdout
    .trim()
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter((parts) => parts.length === 3)
    .map(([text, start, end]) => ({ text: text!, start: Number(start), end: Number(end) }))
  return { wavPath, words }
}
