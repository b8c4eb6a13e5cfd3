import { NamecardError } from '../shared/core/errors.js';

/** What to do after a write whose outcome is unknown: look before setting it again. */
export const OUTCOME_UNKNOWN_HINT =
  'Check with `namecard status` (or `namecard list`) whether it was saved before setting it again';

/**
 * A data write was sent but its answer does not say whether the server stored it: a gateway
 * error, an answer that is not JSON, or a connection that broke. Never retried, never
 * reported as a success.
 */
export class OutcomeUnknownError extends NamecardError {
  constructor(message: string) {
    super('outcome_unknown', message, OUTCOME_UNKNOWN_HINT);
  }
}
