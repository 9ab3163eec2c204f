import { redisScript } from './redis-client.js';

// The three RateLimitStore methods as Lua, each one atomic round trip, with exactly MemoryRateLimitStore's rules (see
// its code in src/core/rate-limit-store.ts, rule for rule). The state is a hash: limit, remaining, resetAt (ms since
// the epoch, on the limiter's clock), provisional (1 while the window is a guess). Times are written with %.0f, since
// Lua's default number format would round a 13-digit ms timestamp. Each write sets the key to expire `margin` ms after
// its window ends, so idle keys go.

const READ_STATE = `
local s = redis.call('HMGET', KEYS[1], 'limit', 'remaining', 'resetAt', 'provisional')
local limit, remaining, resetAt, provisional = tonumber(s[1]), tonumber(s[2]), tonumber(s[3]), s[4] == '1'
local function ms(n) return string.format('%.0f', n) end
`;

/**
 * KEYS: state, the sharers (a hash of store ids and when each last took). ARGV: now, inFlight, assumed limit, assumed
 * window ms, margin ms, this store's id. Returns granted, limit, remaining, resetAt, provisional, and how many stores
 * took in the last two assumed windows (what each one's share is when Redis goes away).
 */
export const TAKE = redisScript(`${READ_STATE}
local now, inFlight = tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('HSET', KEYS[2], ARGV[6], ms(now))
if not resetAt or now >= resetAt then
  -- Once a window, the sharers that have not taken for two assumed windows are forgotten.
  local sharers = redis.call('HGETALL', KEYS[2])
  for i = 1, #sharers, 2 do
    if tonumber(sharers[i + 1]) < now - 2 * tonumber(ARGV[4]) then redis.call('HDEL', KEYS[2], sharers[i]) end
  end
  redis.call('PEXPIRE', KEYS[2], ms(2 * tonumber(ARGV[4]) + tonumber(ARGV[5])))
  -- After "X-RateLimit-Limit: 0" one request per window still goes out, to learn whether the limit was raised.
  limit = math.max(1, limit or tonumber(ARGV[3]))
  -- Requests still in flight may land in the new window, so they are counted against it.
  remaining = math.max(0, limit - inFlight)
  resetAt = now + tonumber(ARGV[4])
  provisional = true
  redis.call('HSET', KEYS[1], 'limit', limit, 'remaining', remaining, 'resetAt', ms(resetAt), 'provisional', 1)
  redis.call('PEXPIRE', KEYS[1], ms(resetAt - now + tonumber(ARGV[5])))
end
local sharing = redis.call('HLEN', KEYS[2])
if remaining <= 0 then return {0, limit, remaining, ms(resetAt), provisional and 1 or 0, sharing} end
remaining = remaining - 1
redis.call('HSET', KEYS[1], 'remaining', remaining)
return {1, limit, remaining, ms(resetAt), provisional and 1 or 0, sharing}
`);

/** KEYS: state. ARGV: seen limit, seen remaining, seen resetAt, inFlight, now, margin ms. */
export const OBSERVE = redisScript(`${READ_STATE}
local seenLimit, seenRemaining, seenResetAt = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local inFlight, now = tonumber(ARGV[4]), tonumber(ARGV[5])
if seenResetAt <= now then
  -- The answer was counted in a window that is over; it did not use the new window's budget.
  if resetAt and provisional then redis.call('HSET', KEYS[1], 'remaining', math.min(limit, remaining + 1)) end
  return 0
end
local fresh = math.max(0, seenRemaining - inFlight)
if not resetAt or provisional or seenResetAt > resetAt then
  -- Another process's requests taken from the guessed window are in flight, not yet in the server's count.
  if resetAt and provisional then fresh = math.min(fresh, math.max(0, remaining + seenLimit - limit)) end
  redis.call('HSET', KEYS[1], 'limit', seenLimit, 'remaining', fresh, 'resetAt', ms(seenResetAt), 'provisional', 0)
  redis.call('PEXPIRE', KEYS[1], ms(seenResetAt - now + tonumber(ARGV[6])))
elseif seenResetAt == resetAt then
  -- Answers arrive out of order; the lowest count is the freshest.
  redis.call('HSET', KEYS[1], 'limit', seenLimit, 'remaining', math.min(remaining, fresh))
end
return 0
`);

/** KEYS: state. ARGV: resetAt, default limit, now (the last the store saw), margin ms. */
export const BLOCK = redisScript(`${READ_STATE}
local blockedUntil = tonumber(ARGV[1])
if resetAt then
  -- The API's own word (Retry-After) replaces a guessed window; a window its headers stated can only grow.
  if not provisional then blockedUntil = math.max(resetAt, blockedUntil) end
  redis.call('HSET', KEYS[1], 'remaining', 0, 'resetAt', ms(blockedUntil), 'provisional', 0)
else
  redis.call('HSET', KEYS[1], 'limit', tonumber(ARGV[2]), 'remaining', 0, 'resetAt', ms(blockedUntil), 'provisional', 0)
end
redis.call('PEXPIRE', KEYS[1], ms(math.max(0, blockedUntil - tonumber(ARGV[3])) + tonumber(ARGV[4])))
return 0
`);
