import { type AnswerClassifier, bodyMessage, isRecord, rateLimitErrorFrom, where } from '../core/error-mapping.js';
import {
  APIError,
  type APIErrorInit,
  AuthenticationError,
  BadRequestError,
  NotFoundError,
  PermissionDeniedError,
} from '../core/errors.js';

/**
 * The management API's rules (docs/service.md): failures come as `error: 1` (or `429`) in the body, usually
 * with HTTP 200; only key and permission failures use HTTP 403. The message tells "not found" apart.
 */
export const classifyManagementAnswer: AnswerClassifier = (answer) => {
  const { body } = answer;
  if (!isRecord(body) || !('error' in body)) return null;
  const flag = body.error;
  const stated = bodyMessage(body);
  if (flag === 429 || flag === '429') return rateLimitErrorFrom(answer, stated);
  if (flag === 0 || flag === '0' || flag === false || flag === null) return null;
  const message = stated ?? 'The API reported a failure without a message.';
  const init = (hint = ''): APIErrorInit => ({
    status: answer.status,
    message: `${message}${hint} ${where(answer)}`,
    body,
    headers: answer.headers,
  });
  if (answer.status === 401 || /valid api key/i.test(message)) {
    return new AuthenticationError(init(' Check the apiKey option or LINKGATE_API_KEY.'));
  }
  if (answer.status === 403) return new PermissionDeniedError(init(' This endpoint needs an admin API key.'));
  if (answer.status === 429) return rateLimitErrorFrom(answer, message);
  if (answer.status === 404 || /not found|does not exist/i.test(message)) return new NotFoundError(init());
  if (answer.status === 408 || answer.status >= 500) return new APIError(init());
  return new BadRequestError(init());
};
