/**
 * The database schema this version of namecard needs: the version (file-name timestamp) of the
 * newest file in supabase/migrations. That migration also defines `public.namecard_schema_version()`
 * returning this same text, so `namecard doctor` learns with one call whether the database has
 * every migration, and the site build publishes it in `namecard.json`.
 *
 * Every new migration must redefine `namecard_schema_version()` with its own version and bump
 * this constant (tests/unit/schema-version.test.ts fails otherwise).
 */
export const SCHEMA_VERSION = '20261127160039';

/** The function that answers the database's schema version (`GET /rest/v1/rpc/<name>`). */
export const SCHEMA_VERSION_FUNCTION = 'namecard_schema_version';
