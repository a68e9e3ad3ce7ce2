import { describe, expect, it } from "vitest"
import { execFile } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { spanLoudness } from "../../adapters/media/word-loudness.ts"

const run = promisify(execFile)

describe("spanLoudness", () => {
  it("measures each span's RMS in dBFS from a 16 kHz mono WAV, silence at the floor", async () => {
    const dir = await mkdtemp(join(tmpdir(), "loudness-"))
    try {
      const wav = join(dir, "tones.wav")
      // 1 s of a full-scale-ish sine (-6 dBFS peak), 1 s of the same 20 dB down, 1 s of silence
      await run("ffmpeg", [
        "-nostdin", "-v", "error", "-f", "lavfi", "-i",
        "aevalsrc='if(lt(t,1),0.5*sin(2*PI*440*t),if(lt(t,2),0.05*sin(2*PI*440*t),0))':s=16000:d=3",
        "-ac", "1", "-ar", "16000", "-c:a", "pcm_s16le", wav
      ])
      const [loud, quiet, silent, outside] = await spanLoudness(wav, [
        { start: 0.2, end: 0.8 },
        { start: 1.2, end: 1.8 },
        { start: 2.2, end: 2.8 },
        { start: 5, end: 6 }
      ])
      // a sine's RMS is its peak / sqrt 2: 0.5 -> -9.03 dBFS
      expect(loud).toBeCloseTo(-9.03, 1)
      expect(loud! - quiet!).toBeCloseTo(20, 0)
      expect(silent).toBe(-100)
      expect(outside).toBe(-100)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
