// The official suite's `authorization` scenarios, each with the checks here that judge its rules: `--scenario NAME`
// runs those checks, and `--output-dir` writes one folder of them per scenario.
export const OFFICIAL_AUTHZ_SCENARIOS: Readonly<Record<string, readonly string[]>> = {
  // 200 with JSON metadata at the well-known location, its issuer the one it was fetched for.
  'authorization-server-metadata-endpoint': ['authz/metadata/discovery', 'authz/metadata/issuer'],
  // The code flow with PKCE S256 and a resource: a code at the redirect_uri, iss (when present) the issuer, and a token
  // response with access_token, token_type and Cache-Control: no-store.
  'authorization-code-grant': ['authz/code/token', 'authz/authorize/iss'],
};

/** The checks of an official scenario; a name the official suite does not have is undefined. */
export const authzScenarioChecks = (name: string): readonly string[] | undefined =>
  Object.hasOwn(OFFICIAL_AUTHZ_SCENARIOS, name) ? OFFICIAL_AUTHZ_SCENARIOS[name] : undefined;
