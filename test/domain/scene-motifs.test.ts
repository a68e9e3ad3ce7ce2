// Prompt words -> motifs, time of day and mood: deterministic, and always a scene with somewhere to stand.
import { describe, expect, it } from "vitest"
import { GROUND_MOTIFS, type Motif, MOTIFS, planScene } from "../../domain/scene-motifs.ts"

describe("planScene", () => {
  it("reads the motifs, the time of day and the mood from the words", () => {
    expect(planScene("A quiet beach at sunset")).toEqual({ motifs: ["waves", "sun"], timeOfDay: "sunset", mood: "calm" })
    expect(planScene("a busy city street at night")).toEqual({
      motifs: ["skyline", "night-sky"],
      timeOfDay: "night",
      mood: "lively"
    })
  })

  it("gives the same plan for the same prompt, whatever the case and punctuation", () => {
    expect(planScene("Storm over the OCEAN!!")).toEqual(planScene("storm over the ocean"))
    expect(planScene("storm, over... the ocean")).toEqual(planScene("storm over the ocean"))
  })

  it.each<[string, Motif]>([
    ["waves crashing on the shore", "waves"],
    ["downtown buildings", "skyline"],
    ["a walk in the forest", "trees"],
    ["the moon and the stars", "night-sky"],
    ["climbing mountains", "peaks"],
    ["summer vibes", "sun"],
    ["a rainy afternoon", "rain"],
    ["winter is coming", "snow"],
    ["a trip to outer space", "planets"],
    ["how to make money online", "rising-chart"],
    ["falling in love", "hearts"],
    ["my favourite pizza recipes", "food"],
    ["driving down the highway", "road"],
    ["a crowd of people", "crowd"],
    ["lost in the desert", "desert"],
    ["spring flowers", "flowers"],
    ["clouds drifting by", "clouds"],
    ["birds flying south", "birds"],
    ["sailing boats in the harbour", "boat"],
    ["stories around the campfire", "fire"],
    ["music that makes you dance", "music"],
    ["the future of AI and robots", "tech"],
    ["three habits for better focus", "abstract"],
    ["a farm in the countryside", "hills"]
  ])("%s -> %s", (prompt, motif) => {
    expect(planScene(prompt).motifs).toContain(motif)
  })

  it("reaches every motif from some word", () => {
    const prompts = [
      "ocean city forest night", "mountain sun rain snow", "space money love food", "road crowd desert flower",
      "cloud bird boat fire", "music tech idea hill"
    ]
    const reached = new Set(prompts.flatMap((p) => [...planScene(p).motifs]))
    expect([...MOTIFS].filter((m) => !reached.has(m))).toEqual([])
  })

  it("understands plurals", () => {
    expect(planScene("cities").motifs).toContain("skyline")
    expect(planScene("beaches").motifs).toContain("waves")
    expect(planScene("mountains").motifs).toContain("peaks")
    expect(planScene("trees").motifs).toContain("trees")
  })

  it("lists each motif once, in the order the prompt names them", () => {
    const plan = planScene("trees and more trees by the sea under a tree")
    expect(plan.motifs.slice(0, 2)).toEqual(["trees", "waves"])
    expect(new Set(plan.motifs).size).toBe(plan.motifs.length)
  })

  it("keeps at most five named motifs, so the picture stays readable", () => {
    const plan = planScene("ocean city forest mountain rain money love pizza car desert")
    expect(plan.motifs.slice(0, 5)).toEqual(["waves", "skyline", "trees", "peaks", "rain"])
    expect(plan.motifs).not.toContain("hearts")
  })

  it("adds rolling hills when nothing in the prompt makes a foreground", () => {
    expect(planScene("falling in love").motifs).toEqual(["hearts", "hills"])
    expect(planScene("snowy mountains").motifs).toEqual(["snow", "peaks", "hills"])
    expect(planScene("a walk on the beach").motifs).not.toContain("hills")
  })

  it("puts space at night, with no ground but a planet's", () => {
    const plan = planScene("exploring distant planets")
    expect(plan.timeOfDay).toBe("night")
    expect(plan.motifs).toEqual(["planets", "night-sky"])
  })

  it("adds what a motif implies", () => {
    expect(planScene("a boat").motifs).toContain("waves")
    expect(planScene("heavy rain").motifs).toContain("clouds")
    expect(planScene("sunrise over the lake").timeOfDay).toBe("dawn")
    expect(planScene("golden hour in the park").motifs).toContain("sun")
    expect(planScene("stars").timeOfDay).toBe("night")
  })

  it("reads the mood, or guesses it from the motifs", () => {
    expect(planScene("a dark and stormy sea").mood).toBe("dramatic")
    expect(planScene("a calm lake").mood).toBe("calm")
    expect(planScene("a concert").mood).toBe("lively")
    expect(planScene("hot coffee").mood).toBe("cozy")
    expect(planScene("rain on the window").mood).toBe("dramatic")
  })

  it("composes a scene even for words it does not know, and not always the same one", () => {
    const prompts = ["qwerty", "lorem ipsum", "xyzzy plugh", "foo bar baz", "zzz", "ÄÖÜ", ""]
    const plans = prompts.map(planScene)
    for (const plan of plans) {
      expect(plan.motifs).toContain("abstract")
      expect(plan.motifs.some((m) => GROUND_MOTIFS.includes(m))).toBe(true)
    }
    expect(new Set(plans.map((p) => JSON.stringify(p))).size).toBeGreaterThan(1)
  })
})
