/**
 * Supabase's well-known local-development credentials (the ones `supabase start`
 * uses), so the same SUPABASE_URL/SUPABASE_ANON_KEY work against the emulator and
 * the Supabase CLI stack. They are public; never use them for a hosted project.
 */

/** HS256 secret that signs the local keys and every access token the emulator issues. */
export const LOCAL_JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long';

/** HS256 over `{"iss":"supabase-demo","role":"anon","exp":1983812996}`. */
export const LOCAL_ANON_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0';

/** HS256 over `{"iss":"supabase-demo","role":"service_role","exp":1983812996}`. */
export const LOCAL_SERVICE_ROLE_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6InNlcnZpY2Vfcm9sZSIsImV4cCI6MTk4MzgxMjk5Nn0.EGIM96RAZx35lJzdJsyH-qQwv8Hdp7fsn3W0YpN81IU';

/** The CLI's opaque keys; its gateway swaps them for the anon / service_role JWTs. */
export const LOCAL_PUBLISHABLE_KEY = 'sb_publishable_ACJWlzQHlZjBrEguHvfOxg_3BJgxAaH';
/** The Supabase CLI's local secret key, standing for the service_role JWT. */
export const LOCAL_SECRET_KEY = 'sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz';

/** Payload of the local anon and service_role keys (used to check the constants). */
export function localKeyPayload(role: 'anon' | 'service_role') {
  return { iss: 'supabase-demo', role, exp: 1983812996 };
}

/**
 * Maps an `apikey` value to the JWT it stands for, or undefined when it is not one
 * of the local keys. Opaque keys map to their JWT, as the CLI's gateway does.
 */
export function resolveApiKey(apikey: string): string | undefined {
  switch (apikey) {
    case LOCAL_ANON_KEY:
    case LOCAL_PUBLISHABLE_KEY:
      return LOCAL_ANON_KEY;
    case LOCAL_SERVICE_ROLE_KEY:
    case LOCAL_SECRET_KEY:
      return LOCAL_SERVICE_ROLE_KEY;
    default:
      return undefined;
  }
}
