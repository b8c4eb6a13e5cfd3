import type { Context } from 'hono';
import { AuthError } from './errors.js';

/**
 * Parses the JSON request body (empty body = `{}`).
 * @throws AuthError 400 bad_json when it is not a JSON object.
 */
export async function jsonBody(c: Context): Promise<Record<string, unknown>> {
  const text = await c.req.text();
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
    throw new Error('expected a JSON object');
  } catch (e) {
    throw new AuthError(
      400,
      'bad_json',
      `Could not parse request body as JSON: ${(e as Error).message}`,
    );
  }
}

/** `body[key]` when it is a string, else '' (GoTrue treats a missing field as empty). */
export const stringField = (body: Record<string, unknown>, key: string): string =>
  typeof body[key] === 'string' ? body[key] : '';
