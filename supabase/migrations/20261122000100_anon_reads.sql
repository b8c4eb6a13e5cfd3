-- Visitors read only what a visitor needs. Until now anon could read every column of
-- public.namecard, including created_by, the owner's user id. A visitor needs the entry's
-- id, type, start and end (what /go, `namecard status` and the views namecard_active and
-- namecard_next answer); the audit columns stay with signed-in users (the owner's manage page
-- and `namecard list`), who keep their table-wide select.
--
-- Column privileges are checked for the columns a query names: `select=*` as anon is refused
-- (42501), while `select=id,type,stamp_start,stamp_end` and both views (security_invoker,
-- so the reader's own grants apply) keep working.

revoke select on table public.namecard from anon;
grant select (id, type, stamp_start, stamp_end) on table public.namecard to anon;
