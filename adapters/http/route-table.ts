// The server's routes as tables. The router's (the API and every route added beside it): which methods a
// path answers, for 405 and OPTIONS with Allow, and which route names a request in logs and metrics. The
// API's, read from its HttpApi: the body types each route accepts, which the request guard checks before
// routing, to answer 415 with them without reading a byte of a body the route would refuse.
import { HttpApi, type HttpApiGroup, type HttpRouter } from "@effect/platform"
import { Chunk } from "effect"
import { ReelwrightApi } from "./api.ts"

/** `/v1/videos/:id` as an anchored pattern: each `:param` one segment, `*` the rest. */
const patternOf = (path: string): RegExp =>
  new RegExp(`^${path.split(/(:[A-Za-z_][A-Za-z0-9_]*|\*)/).map((piece, i) =>
    i % 2 === 0 ? piece.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") : piece === "*" ? ".*" : "[^/]+"
  ).join("")}$`)

export interface RouteEntry {
  /** An HTTP method, or `*` for a route that answers every method. */
  readonly method: string
  readonly path: string
  readonly pattern: RegExp
}

const variableParts = (path: string): number => (path.match(/:|\*/g) ?? []).length

const tables = new WeakMap<HttpRouter.HttpRouter<unknown, unknown>, ReadonlyArray<RouteEntry>>()

/** The router's routes, the most literal first (as the router prefers them); made once per router. */
export const routesOf = (router: HttpRouter.HttpRouter<unknown, unknown>): ReadonlyArray<RouteEntry> => {
  const known = tables.get(router)
  if (known !== undefined) return known
  const table = Chunk.toReadonlyArray(router.routes)
    .map((route) => ({ method: route.method, path: route.path, pattern: patternOf(route.path) }))
    .sort((a, b) => variableParts(a.path) - variableParts(b.path))
  tables.set(router, table)
  return table
}

/** The methods that some route of the router answers at this path; empty when no route has the path. */
export const methodsAt = (router: HttpRouter.HttpRouter<unknown, unknown>, path: string): ReadonlyArray<string> =>
  [...new Set(routesOf(router).filter((r) => r.method !== "*" && r.pattern.test(path)).map((r) => r.method))]

interface ApiRoute {
  readonly method: string
  readonly pattern: RegExp
  /** Content types the route decodes a body from, e.g. `application/json`, `multipart/form-data`. */
  readonly bodyTypes: ReadonlyArray<string>
}

export interface ApiRouteTable {
  /** The body types the route at method and path accepts; undefined when the API has no such route. */
  readonly bodyTypesOf: (method: string, path: string) => ReadonlyArray<string> | undefined
}

export const routeTableOf = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R>(
  api: HttpApi.HttpApi<Id, Groups, E, R>
): ApiRouteTable => {
  const routes: Array<ApiRoute> = []
  HttpApi.reflect(api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, payloads }) => {
      routes.push({ method: endpoint.method, pattern: patternOf(endpoint.path), bodyTypes: [...payloads.keys()] })
    }
  })
  return {
    bodyTypesOf: (method, path) => routes.find((r) => r.method === method && r.pattern.test(path))?.bodyTypes
  }
}

export const API_ROUTES = routeTableOf(ReelwrightApi)
