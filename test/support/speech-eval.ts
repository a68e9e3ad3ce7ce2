// The real read speech beside the checkout (../shared/speech-eval: ten VoxForge clips of one speaker, each
// with its reference transcript), for measuring recognition where festival's clean voice tells nothing.
// The audio is GPL: it is read where it lies, never copied (nor audio made from it) into the repository.
import { existsSync } from "node:fs"
import { readdir, readFile } from "node:fs/promises"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { readWavFormat } from "./clips.ts"

export const SPEECH_EVAL_DIR = process.env["SPEECH_EVAL_DIR"] ??
  fileURLToPath(new URL("../../../shared/speech-eval", import.meta.url))

/** Why the clips cannot be used here, or undefined when they can. */
export const speechEvalMissing: string | undefined = existsSync(SPEECH_EVAL_DIR)
  ? undefined
  : `${SPEECH_EVAL_DIR} is missing (real read speech, kept outside the repository; SPEECH_EVAL_DIR names another place)`

export interface EvalClip {
  readonly name: string
  readonly wavPath: string
  /** What is said: lowercase, no punctuation. */
  readonly reference: string
  readonly durationSeconds: number
}

/** Every `<name>.wav` with its `<name>.txt`, in name order. */
export const speechEvalClips = async (): Promise<ReadonlyArray<EvalClip>> => {
  const names = (await readdir(SPEECH_EVAL_DIR)).filter((f) => f.endsWith(".wav")).map((f) => f.slice(0, -4)).sort()
  return Promise.all(names.map(async (name) => {
    const wavPath = join(SPEECH_EVAL_DIR, `${name}.wav`)
    return {
      name,
      wavPath,
      reference: (await readFile(join(SPEECH_EVAL_DIR, `${name}.txt`), "utf8")).trim(),
      durationSeconds: (await readWavFormat(wavPath)).durationSeconds
    }
  }))
}
