// src/ops/ reads at a glance: a capability's top level holds its operations and its job handlers
// (`*.job.ts`), its helpers and pipeline steps sit in its `parts/`, helpers of several capabilities in
// src/shared/, and no two capabilities import each other (directly or round a longer loop).
import { readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join, normalize, relative } from "node:path"
import { describe, expect, it } from "vitest"

const OPS = "src/ops"
/** The OAuth surface's use cases: RFC-shaped HTTP endpoints, not catalogue operations. */
const SURFACE_USE_CASES = new Set(["oauth"])

const filesUnder = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith(".ts") ? [path] : []
  })

const capabilities = readdirSync(OPS).filter((name) => statSync(join(OPS, name)).isDirectory())

const importsOf = (file: string): Array<string> =>
  [...readFileSync(file, "utf8").matchAll(/from "(\.{1,2}\/[^"]+)"/g)].map((m) => normalize(join(dirname(file), m[1]!)))

const capabilityOf = (file: string): string | undefined => {
  const rel = relative(OPS, file)
  return rel.startsWith("..") ? undefined : rel.split("/")[0]
}

describe("src/ops layout", () => {
  it.each(capabilities.filter((c) => !SURFACE_USE_CASES.has(c)))("%s: top level holds operations and jobs only", (capability) => {
    const misplaced = readdirSync(join(OPS, capability))
      .filter((name) => name.endsWith(".ts"))
      .filter((name) => {
        const text = readFileSync(join(OPS, capability, name), "utf8")
        return name.endsWith(".job.ts") ? !/\bhandle(Batch)?\(\s*[A-Z]\w*,/.test(text) : !/\boperation\(\{/.test(text)
      })
    expect(misplaced).toEqual([])
  })

  it("declares operations and job handlers nowhere else", () => {
    const stray = filesUnder("src").filter((file) => {
      const text = readFileSync(file, "utf8")
      const topLevel = dirname(dirname(file)) === OPS
      return (/\boperation\(\{/.test(text) && !topLevel) || (/\bhandle(Batch)?\(\s*[A-Z]\w*,\s*\{/.test(text) && !file.endsWith(".job.ts"))
    })
    expect(stray).toEqual([])
  })

  it("has no import loop between capabilities", () => {
    const edges = new Map<string, Set<string>>(capabilities.map((c) => [c, new Set()]))
    for (const file of filesUnder(OPS)) {
      const from = capabilityOf(file)!
      for (const target of importsOf(file)) {
        const to = capabilityOf(target)
        if (to !== undefined && to !== from) edges.get(from)!.add(to)
      }
    }
    const loops: Array<string> = []
    const visit = (node: string, path: Array<string>) => {
      for (const next of edges.get(node) ?? []) {
        if (next === path[0]) loops.push([...path, next].join(" -> "))
        else if (!path.includes(next) && next > path[0]!) visit(next, [...path, next])
      }
    }
    for (const start of capabilities) visit(start, [start])
    expect(loops).toEqual([])
  })
})
