-- Lets a signed-in user ask whether they may change the card, so that the manage page and
-- the CLI can say "this account may not change the card" at sign-in instead of letting a
-- non-owner fill in the form and meet a row-level security error.
--
-- The answer is the very check the insert policy uses (private.is_namecard_owner(), which
-- reads private.namecard_owner as its definer); the view runs with the caller's rights
-- (security_invoker), and only authenticated may read it: anon has no account to ask about.

create view public.namecard_access
with (security_invoker = true) as
  select (select private.is_namecard_owner()) as can_set;

comment on view public.namecard_access is
  'One row: can_set is true when the signed-in user may insert into public.namecard.';

revoke all on public.namecard_access from anon, authenticated, public;
grant select on public.namecard_access to authenticated;
