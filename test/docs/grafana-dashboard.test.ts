// docs/grafana-dashboard.json and the README's "Operating Reelwright" section name only metrics that
// src/kernel/metrics.ts declares, and every declared metric is on the dashboard and in the README: a
// metric renamed or added in code shows up here rather than as an empty panel in production.
import { describe, expect, it } from "vitest"
import { readFileSync } from "node:fs"

const read = (path: string) => readFileSync(new URL(path, import.meta.url), "utf8")

interface Target {
  readonly expr?: string
  readonly datasource?: { readonly type?: string; readonly uid?: string }
}

interface Panel {
  readonly id: number
  readonly type: string
  readonly title: string
  readonly targets?: ReadonlyArray<Target>
  readonly panels?: ReadonlyArray<Panel>
}

interface Dashboard {
  readonly uid: string
  readonly title: string
  readonly schemaVersion: number
  readonly __inputs: ReadonlyArray<{ readonly name: string; readonly type: string; readonly pluginId: string }>
  readonly templating: { readonly list: ReadonlyArray<{ readonly name: string; readonly type: string; readonly query: string }> }
  readonly panels: ReadonlyArray<Panel>
}

const dashboardText = read("../../docs/grafana-dashboard.json")
const dashboard = JSON.parse(dashboardText) as Dashboard

/** Every panel, those inside collapsed rows included. */
const allPanels = (panels: ReadonlyArray<Panel>): ReadonlyArray<Panel> =>
  panels.flatMap((panel) => [panel, ...allPanels(panel.panels ?? [])])

const panels = allPanels(dashboard.panels)
const queryPanels = panels.filter((panel) => panel.type !== "row")
const exprs = queryPanels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr ?? ""))

/** The metric names an expression reads, histogram series suffixes stripped. */
const metricsIn = (text: string): ReadonlySet<string> =>
  new Set(
    [...text.matchAll(/\b(reelwright_[a-z_]+|process_[a-z_]+|nodejs_[a-z_]+)\b/g)].map((match) =>
      match[1]!.replace(/_(bucket|sum|count)$/, "")
    )
  )

/** The first string argument of each Metric.counter/histogram/gauge (or MetricKey.…) call in metrics.ts. */
const declared: ReadonlyArray<string> = [
  ...read("../../src/kernel/metrics.ts").matchAll(/Metric(?:Key)?\.(?:counter|histogram|gauge)\(\s*"([^"]+)"/g)
].map((match) => match[1]!)

const used = new Set(exprs.flatMap((expr) => [...metricsIn(expr)]))

/** The README from "## Operating Reelwright" up to the next second-level heading. */
const operatingSection = (): string => {
  const readme = read("../../README.md")
  const start = readme.indexOf("\n## Operating Reelwright\n")
  expect(start, 'README.md has a "## Operating Reelwright" section').toBeGreaterThanOrEqual(0)
  const next = readme.indexOf("\n## ", start + 1)
  return readme.slice(start, next === -1 ? undefined : next)
}

describe("docs/grafana-dashboard.json", () => {
  it("finds the declared metrics", () => {
    // Guards the parser of metrics.ts: a change of style there must not make every check below vacuous.
    expect(declared.length).toBeGreaterThanOrEqual(15)
    expect(new Set(declared).size).toBe(declared.length)
    expect(declared).toContain("reelwright_queue_oldest_ready_age_seconds")
    expect(declared).toContain("reelwright_http_request_duration_seconds")
  })

  it("is an importable dashboard with a Prometheus data source variable", () => {
    expect(dashboard.uid).toBe("reelwright")
    expect(dashboard.title).toBe("Reelwright")
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(36)
    expect(dashboard.__inputs).toContainEqual(
      expect.objectContaining({ name: "DS_PROMETHEUS", type: "datasource", pluginId: "prometheus" })
    )
    expect(dashboard.templating.list).toContainEqual(
      expect.objectContaining({ name: "datasource", type: "datasource", query: "prometheus" })
    )
    expect(dashboardText.length).toBeLessThan(60_000)
  })

  it("gives every panel a unique id and every query the data source variable", () => {
    const ids = panels.map((panel) => panel.id)
    expect(new Set(ids).size).toBe(ids.length)
    for (const panel of queryPanels) {
      expect(panel.targets?.length ?? 0, `panel "${panel.title}" has queries`).toBeGreaterThan(0)
      for (const target of panel.targets ?? []) {
        expect(target.expr?.trim(), `panel "${panel.title}" has an expression`).toBeTruthy()
        expect(target.datasource?.uid, `panel "${panel.title}" queries \${datasource}`).toBe("${datasource}")
      }
    }
  })

  it("uses only metrics declared in src/kernel/metrics.ts", () => {
    const unknown = [...used].filter((name) => !declared.includes(name))
    expect(unknown).toEqual([])
  })

  it("shows every declared metric on some panel", () => {
    const unused = declared.filter((name) => !used.has(name))
    expect(unused).toEqual([])
  })

  it("takes the max of the queue gauges across instances, never their sum", () => {
    // Every process that serves metrics reads the same queue from the store: summing would count it once per process.
    for (const expr of exprs) {
      const reads = expr.match(/reelwright_queue_[a-z_]+/g) ?? []
      const maxed = expr.match(/max(?:\s+by\s*\([^)]*\))?\s*\(\s*reelwright_queue_[a-z_]+/g) ?? []
      expect(maxed.length, expr).toBe(reads.length)
    }
  })

  it("reads histograms through their buckets", () => {
    for (const expr of exprs) {
      for (const match of expr.matchAll(/histogram_quantile\(\s*[\d.]+\s*,[^]*?\b([a-z_]+)\[/g)) {
        expect(match[1], expr).toMatch(/_bucket$/)
      }
    }
  })
})

describe('README "Operating Reelwright"', () => {
  it("names every declared metric", () => {
    const named = metricsIn(operatingSection())
    const missing = declared.filter((name) => !named.has(name))
    expect(missing).toEqual([])
  })

  it("names only declared metrics of the service", () => {
    const unknown = [...metricsIn(operatingSection())].filter((name) => !declared.includes(name))
    expect(unknown).toEqual([])
  })
})
