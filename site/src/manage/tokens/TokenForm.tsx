import { InputError } from '../../../../shared/core/errors.js';
import { formatWhen } from '../../../../shared/core/format.js';
import { TOKEN_NAME_FORM, isTokenRole, type CreatedToken } from '../../../../shared/core/tokens.js';
import { createToken } from '../../../../shared/supabase/tokens.js';
import { supabase } from '../../supabase.js';
import { useCardScope } from '../card/card-scope.js';
import { ChoiceField } from '../parts/ChoiceField.js';
import { SecretForm } from '../parts/SecretForm.js';
import { aRole } from '../people/role-words.js';

const DAY_SECONDS = 86_400;

/** The roles a token may have. */
const ROLES = [
  { value: 'editor', label: 'Editor' },
  { value: 'viewer', label: 'Viewer' },
];

/** How long a token works, as offered (as `token create --expires`: 90 days by default). */
const VALID_FOR = [
  { value: '30', label: '30 days', seconds: 30 * DAY_SECONDS },
  { value: '90', label: '90 days', seconds: 90 * DAY_SECONDS },
  { value: 'never', label: 'Never expires', seconds: null },
] as const;

/** A field of the form as the page reads it: its value, trimmed. */
const field = (fields: FormData, name: string) => String(fields.get(name) ?? '').trim();

/**
 * Create a token: a name, a role (editor or viewer) and how long it works, then its secret
 * (`nct_…`) shown once, as `namecard token create` shows it. A name out of form is refused
 * before anything is sent.
 *
 * @param onMade called once the server made one (the section reads its list again)
 */
export function TokenForm({ onMade }: { onMade: () => void }) {
  const { slug } = useCardScope();
  return (
    <SecretForm<CreatedToken>
      heading="Create a token"
      submit="Create token"
      fields={<TokenFields />}
      check={(fields) =>
        TOKEN_NAME_FORM.test(field(fields, 'name')) && isTokenRole(field(fields, 'role'))
          ? null
          : 'Name: 1 to 40 of A-Z, a-z, 0-9, ., _ and -, starting with a letter or digit (e.g. github-actions).'
      }
      make={(fields) => {
        const role = field(fields, 'role');
        if (!isTokenRole(role)) throw new InputError('Token role', 'editor or viewer', role);
        const valid = VALID_FOR.find((v) => v.value === fields.get('valid')) ?? VALID_FOR[1];
        return createToken(supabase, field(fields, 'name'), {
          role,
          card: slug,
          validSeconds: valid.seconds,
        });
      }}
      refused="No token made"
      show={(token, at) => ({
        lead: `Token ${token.name}, ${aRole(token.role)}, expires ${token.expires === null ? 'never' : formatWhen(Date.parse(token.expires), at)}`,
        secret: token.token,
        note: (
          <>
            This token will not be shown again: copy it now and store it as a secret (e.g. a
            repository secret <code>NAMECARD_TOKEN</code>).
          </>
        ),
      })}
      what="token"
      testIds={{ block: 'made-token', secret: 'token-secret' }}
      reset
      onMade={onMade}
    />
  );
}

/** The token's name, role (editor unless chosen) and how long it works (90 days unless chosen). */
function TokenFields() {
  return (
    <>
      <label>
        Token name
        <input name="name" autoComplete="off" spellCheck={false} placeholder="github-actions" />
      </label>
      <ChoiceField label="Token role" name="role" choices={ROLES} chosen="editor" />
      <ChoiceField label="Token works for" name="valid" choices={VALID_FOR} chosen="90" />
    </>
  );
}
