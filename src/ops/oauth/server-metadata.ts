// What a client discovers before the flow: which authorization server guards /mcp (RFC 9728), and
// what that server supports (RFC 8414). Both follow from the base URL alone.
import { mcpResource, PKCE_METHOD } from "../../../domain/oauth.ts"

export const protectedResourceMetadata = (baseUrl: string) => ({
  resource: mcpResource(baseUrl),
  authorization_servers: [baseUrl],
  bearer_methods_supported: ["header"],
  resource_name: "Reelwright MCP server"
})

export const authorizationServerMetadata = (baseUrl: string) => ({
  issuer: baseUrl,
  authorization_endpoint: `${baseUrl}/oauth/authorize`,
  token_endpoint: `${baseUrl}/oauth/token`,
  registration_endpoint: `${baseUrl}/oauth/register`,
  // A client may instead use the URL of its metadata document as its client_id (resolve-client.ts).
  client_id_metadata_document_supported: true,
  revocation_endpoint: `${baseUrl}/oauth/revoke`,
  response_types_supported: ["code"],
  grant_types_supported: ["authorization_code", "refresh_token"],
  code_challenge_methods_supported: [PKCE_METHOD],
  token_endpoint_auth_methods_supported: ["none"],
  revocation_endpoint_auth_methods_supported: ["none"],
  authorization_response_iss_parameter_supported: true
})
