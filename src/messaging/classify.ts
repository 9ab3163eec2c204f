import { type AnswerClassifier, bodyMessage, errorForStatus } from '../core/error-mapping.js';
import { AuthenticationError } from '../core/errors.js';

/**
 * The messaging API's rules: failures are HTTP statuses with `{ success: false, message, error }` (spec, Errors);
 * a 401 is an {@link AuthenticationError}. A 2xx answer with `success: false` is a failure too (tolerant reader).
 */
export const classifyMessagingAnswer: AnswerClassifier = (answer) => {
  const body = answer.body as { success?: unknown; error?: unknown } | undefined;
  if (answer.status === 401) {
    return new AuthenticationError({
      status: 401,
      message: `${bodyMessage(body) ?? 'Invalid API Key'}: the messaging key is missing, unknown or revoked. Check the apiKey option or LINKGATE_MESSAGING_KEY (${answer.method} ${answer.path} answered HTTP 401).`,
      body: answer.isJson ? answer.body : answer.text,
      headers: answer.headers,
    });
  }
  if (answer.status >= 400) return errorForStatus(answer);
  if (body && typeof body === 'object' && body.success === false) {
    return errorForStatus({ ...answer, status: answer.status === 200 ? 400 : answer.status });
  }
  return null;
};
