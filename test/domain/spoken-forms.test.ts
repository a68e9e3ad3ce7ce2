import { describe, expect, it } from "vitest"
import { numberWords, spokenForms } from "../../domain/spoken-forms.ts"

describe("spokenForms", () => {
  it("says words in lowercase without their punctuation", () => {
    expect(spokenForms("Hello,")).toEqual(["hello"])
    expect(spokenForms("“Don’t")).toEqual(["don't"])
    expect(spokenForms("well-known")).toEqual(["well", "known"])
    expect(spokenForms("—")).toEqual([])
  })

  it("says numbers, years, ordinals, decimals, money and symbols", () => {
    expect(numberWords(1205)).toEqual(["one", "thousand", "two", "hundred", "five"])
    expect(spokenForms("42")).toEqual(["forty", "two"])
    expect(spokenForms("1999.")).toEqual(["nineteen", "ninety", "nine"])
    expect(spokenForms("2005")).toEqual(["two", "thousand", "five"])
    expect(spokenForms("2024")).toEqual(["twenty", "twenty", "four"])
    expect(spokenForms("1,000,000")).toEqual(["one", "million"])
    expect(spokenForms("21st")).toEqual(["twenty", "first"])
    expect(spokenForms("1990s")).toEqual(["nineteen", "nineties"])
    expect(spokenForms("3.5%")).toEqual(["three", "point", "five", "percent"])
    expect(spokenForms("$42")).toEqual(["forty", "two", "dollars"])
    expect(spokenForms("$1")).toEqual(["one", "dollar"])
    expect(spokenForms("R&D")).toEqual(["r", "and", "d"])
    expect(spokenForms("mp4")).toEqual(["mp", "four"])
  })
})
