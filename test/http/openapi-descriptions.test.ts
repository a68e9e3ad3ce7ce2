// The OpenAPI document describes every field of every request and response, and every parameter.
import { describe, expect, it } from "vitest"
import { OpenApi } from "@effect/platform"
import { ReelwrightApi } from "../../adapters/http/api.ts"
import {
  BYOK_RENDER_CENTS_PER_MINUTE,
  CAPTION_CREDITS_PER_MINUTE,
  REMOVAL_ANALYSIS_CREDITS_PER_MINUTE,
  REMOVAL_WIPE_CREDITS_PER_MINUTE,
  RENDER_CREDITS_PER_MINUTE,
  SPEECH_CREDITS_PER_MINUTE
} from "../../domain/pricing.ts"

type Json = { readonly [key: string]: any }

const spec = OpenApi.fromApi(ReelwrightApi) as unknown as Json

const resolve = (schema: Json): Json =>
  schema.$ref === undefined ? schema : spec.components.schemas[String(schema.$ref).split("/").pop()!]

/** Paths of properties with no description of their own, nor on the schema they refer to. */
const undescribed = (schema: Json | undefined, path: string, seen: Set<Json>): Array<string> => {
  if (schema === undefined) return []
  const target = resolve(schema)
  if (target === undefined || seen.has(target)) return []
  seen.add(target)
  const own = Object.entries<Json>(target.properties ?? {}).flatMap(([name, property]) => [
    ...(property.description ?? resolve(property)?.description ? [] : [`${path}.${name}`]),
    ...undescribed(property, `${path}.${name}`, seen)
  ])
  const nested = ["anyOf", "oneOf", "allOf"].flatMap((k) => (target[k] ?? []).flatMap((s: Json) => undescribed(s, path, seen)))
  return [...own, ...nested, ...undescribed(target.items, `${path}[]`, seen)]
}

describe("OpenAPI document", () => {
  it("is OpenAPI 3.1 with a bearer security scheme", () => {
    expect(spec.openapi).toBe("3.1.0")
    expect(JSON.stringify(spec.components.securitySchemes)).toContain("bearer")
  })

  it("describes every field and parameter", () => {
    const missing = Object.entries<Json>(spec.paths).flatMap(([path, operations]) =>
      Object.entries<Json>(operations).flatMap(([method, op]) => [
        ...Object.entries<Json>(op.requestBody?.content ?? {}).flatMap(([type, c]) =>
          undescribed(c.schema, `${method} ${path} ${type}`, new Set())
        ),
        ...(op.parameters ?? [])
          .filter((p: Json) => p.description === undefined && p.schema?.description === undefined)
          .map((p: Json) => `${method} ${path} parameter ${p.name}`),
        ...undescribed(op.responses?.["200"]?.content?.["application/json"]?.schema, `${method} ${path} 200`, new Set())
      ])
    )
    expect(missing).toEqual([])
  })
})

describe("prices in the document", () => {
  it("are the rates of domain/pricing.ts, wherever a description states one", () => {
    const rates = new Set([
      SPEECH_CREDITS_PER_MINUTE,
      CAPTION_CREDITS_PER_MINUTE,
      REMOVAL_ANALYSIS_CREDITS_PER_MINUTE,
      REMOVAL_WIPE_CREDITS_PER_MINUTE,
      ...Object.values(RENDER_CREDITS_PER_MINUTE)
    ])
    const text = JSON.stringify(spec)
    const stated = [...text.matchAll(/(\d+) credits per (?:started )?minute/g)].map((m) => Number(m[1]))
    expect(stated.length).toBeGreaterThan(3)
    for (const amount of stated) expect(rates).toContain(amount)
    const dollars = [...text.matchAll(/\$(\d+\.\d\d) per minute/g)].map((m) => m[1])
    expect(dollars.length).toBeGreaterThan(0)
    for (const amount of dollars) expect(Number(amount) * 100).toBe(BYOK_RENDER_CENTS_PER_MINUTE)
  })
})
