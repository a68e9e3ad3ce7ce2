// The API's routes as a table read from its HttpApi: which methods a path answers and which body types
// each accepts. The request guard uses it before routing, to answer 405 with Allow and 415 with the
// types a route takes, without reading a byte of a body the route would refuse.
import { HttpApi, type HttpApiGroup } from "@effect/platform"
import { ReelwrightApi } from "./api.ts"

interface Route {
  readonly method: string
  readonly pattern: RegExp
  /** Content types the route decodes a body from, e.g. `application/json`, `multipart/form-data`. */
  readonly bodyTypes: ReadonlyArray<string>
}

export interface RouteTable {
  /** The methods that some route answers at this path; empty when no API route has the path. */
  readonly methodsAt: (path: string) => ReadonlyArray<string>
  /** The body types the route at method and path accepts; undefined when the API has no such route. */
  readonly bodyTypesOf: (method: string, path: string) => ReadonlyArray<string> | undefined
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** `/v1/videos/:id/captions.srt` as an anchored pattern, each `:param` one path segment. */
const patternOf = (path: string): RegExp =>
  new RegExp(`^${path.split(/(:[A-Za-z_][A-Za-z0-9_]*)/).map((piece, i) => i % 2 === 1 ? "[^/]+" : escapeRegExp(piece)).join("")}$`)

export const routeTableOf = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R>(
  api: HttpApi.HttpApi<Id, Groups, E, R>
): RouteTable => {
  const routes: Array<Route> = []
  HttpApi.reflect(api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, payloads }) => {
      routes.push({ method: endpoint.method, pattern: patternOf(endpoint.path), bodyTypes: [...payloads.keys()] })
    }
  })
  return {
    methodsAt: (path) => [...new Set(routes.filter((r) => r.pattern.test(path)).map((r) => r.method))],
    bodyTypesOf: (method, path) => routes.find((r) => r.method === method && r.pattern.test(path))?.bodyTypes
  }
}

export const API_ROUTES = routeTableOf(ReelwrightApi)
