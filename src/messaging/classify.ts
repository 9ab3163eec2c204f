import { type AnswerClassifier, errorForStatus } from '../core/error-mapping.js';
import type { AuthenticationError } from '../core/errors.js';

/**
 * The messaging API's rules: failures are HTTP statuses with `{ success: false, message, error }` (spec, Errors);
 * a 401 is an {@link AuthenticationError}. A 2xx answer with `success: false` is a failure too (tolerant reader).
 */
export const classifyMessagingAnswer: AnswerClassifier = (answer) => {
  const body = answer.body as { success?: unknown; error?: unknown } | undefined;
  if (answer.status >= 400) {
    const hint =
      answer.status === 401
        ? '; the messaging key is missing, unknown or revoked: check apiKey or LINKGATE_MESSAGING_KEY.'
        : '';
    return errorForStatus(answer, hint);
  }
  if (body && typeof body === 'object' && body.success === false) {
    return errorForStatus({ ...answer, status: answer.status === 200 ? 400 : answer.status });
  }
  return null;
};
