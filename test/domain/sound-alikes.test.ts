import { describe, expect, it } from "vitest"
import { replaceSoundAlikes } from "../../domain/sound-alikes.ts"

const SAID: Readonly<Record<string, ReadonlyArray<string>>> = {
  sore: ["S", "AO", "R"],
  blot: ["B", "L", "AA", "T"],
  the: ["DH", "AH"],
  captain: ["K", "AE", "P", "T", "AH", "N"],
  paid: ["P", "EY", "D"],
  real: ["R", "IY", "L"],
  right: ["R", "AY", "T"],
  ann: ["AE", "N"]
}
const heard = (text: string) => text.split(" ").map((w, i) => ({ text: w, start: i, end: i + 0.5 }))

describe("replaceSoundAlikes", () => {
  const terms = [
    { text: "Zorblatt", phones: [["Z", "AO", "R", "B", "L", "AH", "T"]] },
    { text: "Reelwright", phones: [["R", "IY", "L", "R", "AY", "T"]] },
    { text: "Anne", phones: [["AE", "N"]] }
  ]

  it("replaces a run of heard words that sounds like a term, keeping the run's times", () => {
    const out = replaceSoundAlikes(heard("the captain sore blot paid"), terms, (w) => SAID[w])
    expect(out).toEqual([
      { text: "the", start: 0, end: 0.5 },
      { text: "captain", start: 1, end: 1.5 },
      { text: "Zorblatt", start: 2, end: 3.5 },
      { text: "paid", start: 4, end: 4.5 }
    ])
    expect(replaceSoundAlikes(heard("real right"), terms, (w) => SAID[w]).map((w) => w.text)).toEqual(["Reelwright"])
  })

  it("leaves words that sound like no term, short terms, and words it cannot say", () => {
    expect(replaceSoundAlikes(heard("the captain paid ann"), terms, (w) => SAID[w]).map((w) => w.text)).toEqual(["the", "captain", "paid", "ann"])
    expect(replaceSoundAlikes(heard("sore xyzzy blot"), terms, (w) => SAID[w]).map((w) => w.text)).toEqual(["sore", "xyzzy", "blot"])
  })
})
