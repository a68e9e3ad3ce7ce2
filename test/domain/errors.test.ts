// The typed errors of the use cases: tags the adapters map, and messages a person can act on.
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { InsufficientCredits, InvalidInput, NotFound } from "../../domain/errors.ts"

describe("domain errors", () => {
  it("say what is missing", () => {
    expect(new InsufficientCredits({ required: 31, balance: 12 }).message).toBe(
      "This needs 31 credits; the workspace has 12."
    )
    expect(new NotFound({ resource: "video", id: "abc" }).message).toBe("No video with id abc.")
  })

  it("carry a tag, so callers catch them by name", () => {
    const exit = Effect.runSyncExit(
      new InvalidInput({ field: "render.frameRate", message: "must be 30 or 60" }).pipe(
        Effect.catchTag("InvalidInput", (e) => Effect.succeed(e.field))
      )
    )
    expect(exit).toEqual(Exit.succeed("render.frameRate"))
  })
})
