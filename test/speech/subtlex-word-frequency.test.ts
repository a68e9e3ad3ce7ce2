import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { SubtlexWordFrequencyLive } from "../../adapters/speech/subtlex-word-frequency.ts"
import { WordFrequency } from "../../domain/ports/word-frequency.ts"

describe("SubtlexWordFrequency", () => {
  it.effect("ranks spoken English: common words first, rarer ones far down, unknown ones null", () =>
    Effect.gen(function*() {
      const { rank } = yield* WordFrequency
      expect(rank("you")).toBe(0)
      expect(rank("i")).toBe(1)
      expect(rank("the")! < 10).toBe(true)
      expect(rank("harbour")! > rank("weather")!).toBe(true)
      expect(rank("weather")! > rank("house")!).toBe(true)
      expect(rank("xqzzyplorf")).toBeNull()
    }).pipe(Effect.provide(SubtlexWordFrequencyLive)))
})
