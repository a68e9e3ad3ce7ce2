// SoundEffects made in code: each effect is synthesized (filtered noise, decaying partials) as 48 kHz mono
// 16-bit WAV, so no sound files are shipped and every run writes the same bytes.
import { writeFile } from "node:fs/promises"
import { Effect, Layer } from "effect"
import { WorkFailed } from "../../domain/errors.ts"
import { SoundEffects } from "../../domain/ports/sound-effects.ts"
import type { SoundEffect } from "../../domain/sound-effects.ts"
import { hashString, mulberry32 } from "../../domain/seeded-random.ts"
import { pcmWavHeader } from "./wav-file.ts"
import { withSpan } from "../../src/kernel/spans.ts"

const RATE = 48_000
/** -6 dBFS: loud enough to hear over speech, with headroom when effects overlap in a mix. */
const PEAK = 10 ** (-6 / 20)
const FADE_IN_SECONDS = 0.001
const FADE_OUT_SECONDS = 0.006

const samplesOf = (seconds: number): number => Math.round(seconds * RATE)

/** White noise in -1..1, the same for the same effect name. */
const noise = (effect: SoundEffect) => {
  const random = mulberry32(hashString(`sound-effect:${effect}`))
  return () => random() * 2 - 1
}

/**
 * A state-variable filter (topology-preserving form) whose cutoff may change every sample without
 * blowing up, which a swept band-pass needs. Returns the band-pass output.
 */
const bandPass = (q: number) => {
  let ic1 = 0
  let ic2 = 0
  const k = 1 / q
  return (x: number, cutoff: number): number => {
    const g = Math.tan((Math.PI * Math.min(cutoff, RATE * 0.45)) / RATE)
    const a1 = 1 / (1 + g * (g + k))
    const a2 = g * a1
    const a3 = g * a2
    const v3 = x - ic2
    const v1 = a1 * ic1 + a2 * v3
    const v2 = ic2 + a2 * ic1 + a3 * v3
    ic1 = 2 * v1 - ic1
    ic2 = 2 * v2 - ic2
    return v1
  }
}

/** From `from` to `to` along an exponential curve (even steps in pitch), for progress 0..1. */
const glide = (from: number, to: number, progress: number): number => from * (to / from) ** progress

/** A struck partial: a sine at `frequency` starting at `start` seconds, decaying with time constant `decay`. */
const addPartial = (out: Float64Array, start: number, frequency: number, amplitude: number, decay: number): void => {
  const first = samplesOf(start)
  const attack = samplesOf(0.002)
  for (let i = first; i < out.length; i++) {
    const t = (i - first) / RATE
    const rise = Math.min(1, (i - first) / attack)
    out[i]! += amplitude * rise * Math.exp(-t / decay) * Math.sin(2 * Math.PI * frequency * t)
  }
}

/** A bell-like note: harmonics that fade faster the higher they are, and one inharmonic shimmer. */
const addChime = (out: Float64Array, start: number, frequency: number, decay: number): void => {
  addPartial(out, start, frequency, 1, decay)
  addPartial(out, start, frequency * 2, 0.3, decay * 0.55)
  addPartial(out, start, frequency * 3, 0.1, decay * 0.35)
  addPartial(out, start, frequency * 4.16, 0.06, decay * 0.2)
}

/** The iMessage-like send: a short rising swoosh, noise through a band-pass sweeping up, a sine riding along. */
const sent = (): Float64Array => {
  const out = new Float64Array(samplesOf(0.25))
  const white = noise("sent")
  const filter = bandPass(2.5)
  let phase = 0
  for (let i = 0; i < out.length; i++) {
    const p = i / out.length
    // Swells to 70% of the way, then drops away quickly.
    const envelope = p < 0.7 ? (p / 0.7) ** 1.5 : Math.cos(((p - 0.7) / 0.3) * (Math.PI / 2)) ** 2
    phase += (2 * Math.PI * glide(380, 1500, p)) / RATE
    out[i] = envelope * (filter(white(), glide(600, 6000, p)) * 2.2 + 0.35 * Math.sin(phase))
  }
  return out
}

/** A two-note ding, the second a fourth above the first: bright, decaying partials. */
const received = (): Float64Array => {
  const out = new Float64Array(samplesOf(0.4))
  addChime(out, 0, 1318.5, 0.12)
  addChime(out, 0.1, 1760, 0.14)
  return out
}

/** A clock tick: a very short knock, wood-like resonances and a burst of noise, all gone within 30 ms. */
const tick = (): Float64Array => {
  const out = new Float64Array(samplesOf(0.03))
  addPartial(out, 0, 950, 0.5, 0.006)
  addPartial(out, 0, 1900, 1, 0.004)
  addPartial(out, 0, 3150, 0.6, 0.0025)
  const white = noise("tick")
  const filter = bandPass(1.5)
  for (let i = 0; i < out.length; i++) {
    out[i]! += 1.5 * Math.exp(-i / RATE / 0.0015) * filter(white(), 3500)
  }
  return out
}

/** The right answer: a rising major arpeggio (C E G C) of chimes, ringing on together. */
const reveal = (): Float64Array => {
  const out = new Float64Array(samplesOf(0.8))
  ;[1046.5, 1318.5, 1568, 2093].forEach((frequency, n) => addChime(out, n * 0.07, frequency, 0.22))
  return out
}

/** A soft rush of air: noise through a wide band-pass that sweeps up and back, swelling and fading. */
const whoosh = (): Float64Array => {
  const out = new Float64Array(samplesOf(0.4))
  const white = noise("whoosh")
  const filter = bandPass(0.9)
  let pink = 0
  for (let i = 0; i < out.length; i++) {
    const p = i / out.length
    // Softer than white: a one-pole low-pass takes the hiss off.
    pink += 0.3 * (white() - pink)
    const cutoff = p < 0.55 ? glide(350, 2200, p / 0.55) : glide(2200, 900, (p - 0.55) / 0.45)
    out[i] = Math.sin(Math.PI * p) ** 2 * filter(pink, cutoff)
  }
  return out
}

const SYNTHS: Record<SoundEffect, () => Float64Array> = { sent, received, tick, reveal, whoosh }

/** Raised-cosine edges (no click at the start or end), peak at -6 dBFS, as 16-bit samples. */
const toPcm = (signal: Float64Array): Buffer => {
  const fadeIn = samplesOf(FADE_IN_SECONDS)
  const fadeOut = samplesOf(FADE_OUT_SECONDS)
  for (let i = 0; i < fadeIn; i++) signal[i]! *= 0.5 - 0.5 * Math.cos((Math.PI * i) / fadeIn)
  for (let i = 0; i < fadeOut; i++) signal[signal.length - 1 - i]! *= 0.5 - 0.5 * Math.cos((Math.PI * i) / fadeOut)
  const peak = signal.reduce((max, x) => Math.max(max, Math.abs(x)), 0)
  const pcm = Buffer.alloc(signal.length * 2)
  signal.forEach((x, i) => pcm.writeInt16LE(Math.round((x / peak) * PEAK * 32767), i * 2))
  return pcm
}

/** The effect as a complete WAV file. */
export const soundEffectWav = (effect: SoundEffect): Buffer => {
  const pcm = toPcm(SYNTHS[effect]())
  return Buffer.concat([pcmWavHeader(pcm.length / 2, RATE), pcm])
}

export const SynthSoundEffectsLive = Layer.succeed(
  SoundEffects,
  SoundEffects.of({
    write: (effect, outputWav) =>
      Effect.tryPromise({
        try: () => writeFile(outputWav, soundEffectWav(effect)),
        catch: (error) =>
          new WorkFailed({
            message: `Could not write the "${effect}" sound to ${outputWav}: ${error instanceof Error ? error.message : String(error)}`
          })
      }).pipe(withSpan("SynthSoundEffects.write", { attributes: { effect } }))
  })
)
