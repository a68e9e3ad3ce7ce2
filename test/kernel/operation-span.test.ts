// Every operation runs in one span named after it, whichever surface calls it: `operation()` wraps the
// handler (and the upload) once, so no handler names its own span, and each of the catalogue's
// operations is traced the same way.
import { readdir, readFile } from "node:fs/promises"
import { join } from "node:path"
import { Effect, Schema, Tracer } from "effect"
import { describe, expect, it } from "vitest"
import { catalogue } from "../../src/catalogue.ts"
import { CurrentWorkspace } from "../../src/kernel/current-workspace.ts"
import { operation } from "../../src/kernel/operation.ts"
import { aWorkspace } from "../contract/fixtures.ts"

/** Effect's own tracer, remembering each span's name and its parent's. */
const recording = () => {
  const made: Array<{ name: string; parent: string | undefined }> = []
  const native = Effect.runSync(Effect.tracer)
  const tracer = Tracer.make({
    span: (name, parent, ...rest) => {
      made.push({ name, parent: parent._tag === "Some" && parent.value._tag === "Span" ? parent.value.name : undefined })
      return native.span(name, parent, ...rest)
    },
    context: (f, fiber) => native.context(f, fiber)
  })
  return { made, tracer }
}

const probe = operation({
  name: "probeThings",
  summary: "A probe",
  description: "Answers from inside its span.",
  path: Schema.Struct({}),
  payload: Schema.Struct({ url: Schema.optional(Schema.String) }),
  output: Schema.String,
  errors: [],
  http: { method: "POST", path: "/probe" },
  access: "workspace",
  tool: null,
  cli: null,
  idempotent: false,
  handle: () => Effect.succeed("ok").pipe(Effect.withSpan("inner")),
  upload: () => Effect.succeed("uploaded").pipe(Effect.withSpan("inner"))
})

describe("an operation's span", () => {
  it("wraps the handler and the upload, named after the operation, with what they do inside it", () => {
    const { made, tracer } = recording()
    const file = { path: "/nowhere", name: "clip.mp4", contentType: "video/mp4" }
    const answers = Effect.runSync(
      Effect.all([probe.handle({}), probe.upload!(file, {})]).pipe(
        Effect.withSpan("request"),
        Effect.withTracer(tracer),
        Effect.provideService(CurrentWorkspace, aWorkspace())
      )
    )
    expect(answers).toEqual(["ok", "uploaded"])
    expect(made).toEqual([
      { name: "request", parent: undefined },
      { name: "probeThings", parent: "request" },
      { name: "inner", parent: "probeThings" },
      { name: "probeThings", parent: "request" },
      { name: "inner", parent: "probeThings" }
    ])
  })

  it("is the only span named after an operation of the catalogue: no handler adds its own", async () => {
    const root = join(import.meta.dirname, "../../src/ops")
    const files = (await readdir(root, { recursive: true })).filter((f) => f.endsWith(".ts"))
    const named = await Promise.all(files.map(async (f) => {
      const source = await readFile(join(root, f), "utf8")
      return catalogue.filter((op) => source.includes(`withSpan("${op.name}"`)).map((op) => `${f}: ${op.name}`)
    }))
    expect(named.flat()).toEqual([])
  })
})
