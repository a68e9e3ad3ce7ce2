// The lint rules that guard the architecture catch what they are meant to catch.
import { describe, expect, it } from "vitest"
import { ESLint } from "eslint"

const eslint = new ESLint()

const problems = async (filePath: string, code: string) => {
  const [result] = await eslint.lintText(code, { filePath })
  return result!.messages.map((m) => `${m.ruleId}: ${m.message}`)
}

describe("architecture lint rules", () => {
  it.each([
    ["node:fs", "import { readFile } from \"node:fs/promises\"\nexport const x = readFile\n"],
    ["a bare Node module", "import { spawn } from \"child_process\"\nexport const x = spawn\n"],
    ["SQL", "import { PgClient } from \"@effect/sql-pg\"\nexport const x = PgClient\n"],
    ["HTTP", "import { HttpApi } from \"@effect/platform\"\nexport const x = HttpApi\n"],
    ["an adapter", "import { x as y } from \"../adapters/media/ffmpeg-engine.ts\"\nexport const x = y\n"]
  ])("forbids domain/ from importing %s", async (_, code) => {
    expect(await problems("domain/example.ts", code)).toEqual(expect.arrayContaining([expect.stringContaining("no-restricted-imports")]))
  })

  it.each([
    ["a capability's use case", "import { x as y } from \"../ops/credits/charge-work.ts\"\nexport const x = y\n"],
    ["an adapter", "import { x as y } from \"../../adapters/http/api.ts\"\nexport const x = y\n"]
  ])("forbids src/kernel/ from importing %s", async (_, code) => {
    expect(await problems("src/kernel/example.ts", code)).toEqual(expect.arrayContaining([expect.stringContaining("src/kernel/ serves every capability")]))
  })

  it.each(["adapters/http/example.ts", "adapters/mcp/example.ts", "src/kernel/example.ts", "src/cli.ts"])(
    "forbids `any` and `as unknown as` in %s",
    async (filePath) => {
      expect(await problems(filePath, "export const f = (x: any) => x\n")).toEqual([expect.stringContaining("no-explicit-any")])
      expect(await problems(filePath, "export const f = (x: string) => x as unknown as number\n")).toEqual([
        expect.stringContaining("No `as unknown as`")
      ])
      expect(await problems(filePath, "export const f = (x: string): unknown => x as unknown\n")).toEqual([])
    }
  )

  it.each(["src/ops/example.ts", "adapters/http/example.ts", "src/kernel/example.ts"])("forbids Effect's own spans in %s", async (filePath) => {
    const code = "import { Effect } from \"effect\"\nexport const x = Effect.void.pipe(Effect.withSpan(\"x\"))\nexport const y = Effect.withParentSpan\n"
    expect(await problems(filePath, code)).toEqual([
      expect.stringContaining("src/kernel/spans.ts"),
      expect.stringContaining("src/kernel/spans.ts")
    ])
    expect(await problems("src/kernel/spans.ts", code)).toEqual([])
  })

  it("forbids @effect/schema everywhere", async () => {
    const code = "import { Schema } from \"@effect/schema\"\nexport const x = Schema\n"
    expect(await problems("src/example.ts", code)).toEqual([expect.stringContaining("Schema comes from `effect`")])
  })

  it("lets adapters import Node and domain/ import effect", async () => {
    expect(await problems("adapters/example.ts", "import { readFile } from \"node:fs/promises\"\nexport const x = readFile\n")).toEqual([])
    expect(await problems("domain/example.ts", "import { Schema } from \"effect\"\nexport const x = Schema\n")).toEqual([])
  })
})
