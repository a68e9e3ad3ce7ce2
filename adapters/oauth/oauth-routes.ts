// The authorization server's HTTP side, mounted beside the API on the same port: discovery, the
// client endpoints, the sign-in and consent pages, and the user's connected apps.
import { Layer } from "effect"
import { AccountRoute } from "./account-route.ts"
import { AuthorizeRoute } from "./authorize-route.ts"
import { ClientEndpointsRoute } from "./client-endpoints-route.ts"
import { SignInRoute } from "./sign-in-route.ts"
import { WellKnownRoute } from "./well-known-route.ts"

export const OAuthRoutes = Layer.mergeAll(WellKnownRoute, ClientEndpointsRoute, SignInRoute, AuthorizeRoute, AccountRoute)
