// The OpenAPI document describes every field of every request and response, and every parameter.
import { describe, expect, it } from "vitest"
import { OpenApi } from "@effect/platform"
import { ReelwrightApi } from "../../adapters/http/api.ts"

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
