// The last touches on the OpenAPI document the platform writes from the API: an example on every
// operation, and no component left that nothing refers to (the platform's own decode error, which
// documented-responses.ts replaced by the `Error` body the server sends).
import { withExamples } from "./openapi-examples.ts"

type Json = { readonly [key: string]: unknown }

const refsIn = (node: unknown, into: Set<string>): Set<string> => {
  if (Array.isArray(node)) node.forEach((n) => refsIn(n, into))
  else if (typeof node === "object" && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string") into.add(value.split("/").pop()!)
      else refsIn(value, into)
    }
  }
  return into
}

/** The schemas that the paths refer to, and those they refer to in turn. */
const usedSchemas = (paths: unknown, schemas: Json): Json => {
  const used = refsIn(paths, new Set())
  for (let grown = true; grown;) {
    const before = used.size
    for (const name of [...used]) refsIn(schemas[name], used)
    grown = used.size > before
  }
  return Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name)))
}

export const finishedDocument = (spec: Record<string, unknown>): Record<string, unknown> => {
  const components = spec["components"] as Json
  const schemas = usedSchemas(spec["paths"], components["schemas"] as Json)
  const paths = Object.fromEntries(Object.entries(spec["paths"] as Record<string, Json>).map(([path, operations]) => [
    path,
    Object.fromEntries(Object.entries(operations).map(([method, operation]) => [method, withExamples(operation as Json, schemas)]))
  ]))
  return { ...spec, paths, components: { ...components, schemas } }
}
