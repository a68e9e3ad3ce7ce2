// Who is asking, for throttling. Behind a proxy every connection comes from the proxy, so an operator
// names the header the proxy sets to the real client address (Fly.io: `Fly-Client-IP`). Only a proxy
// that overwrites that header may be trusted with it: a client could otherwise pick its own address.
import { HttpServerRequest } from "@effect/platform"
import { Config, Effect, Option } from "effect"

/** `CLIENT_IP_HEADER`: the header carrying the client's address; unset = the connection's address. */
export const ClientIpHeader = Config.option(Config.string("CLIENT_IP_HEADER")).pipe(
  Config.map(Option.map((name) => name.trim().toLowerCase())),
  Config.map(Option.filter((name) => name.length > 0))
)

export const clientAddress = (header: Option.Option<string>) =>
  Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
    const forwarded = Option.flatMapNullable(header, (name) => request.headers[name]?.split(",")[0]?.trim())
    return Option.getOrElse(Option.orElse(Option.filter(forwarded, (a) => a.length > 0), () => request.remoteAddress), () => "unknown")
  })
