-- wrk script for scripts/load-test.sh: POSTs the JSON bodies of $BODIES (one per line) in turn,
-- or GETs the URL when $BODIES is unset, and counts answers by status. wrk runs one Lua state
-- per thread, so done() adds the threads' counts up.
local bodies = {}
local path = os.getenv("BODIES")
if path and path ~= "" then
  for line in io.lines(path) do bodies[#bodies + 1] = line end
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
end
-- What a browser or an HTTP client library sends, when $ACCEPT_ENCODING is set.
local accept_encoding = os.getenv("ACCEPT_ENCODING")
if accept_encoding and accept_encoding ~= "" then
  wrk.headers["Accept-Encoding"] = accept_encoding
end

local threads = {}
function setup(thread) table.insert(threads, thread) end

function init(args)
  next_body, ok, shed, shed_without_retry_after, other = 0, 0, 0, 0, 0
end

function request()
  if #bodies == 0 then return wrk.format() end
  next_body = next_body % #bodies + 1
  return wrk.format(nil, nil, nil, bodies[next_body])
end

function response(status, headers, body)
  if status == 200 then
    ok = ok + 1
  elseif status == 503 then
    shed = shed + 1
    -- `overloaded` asks for a retry; a deadline reached (`solve-timeout`) does not, since the
    -- same work takes as long again.
    local overloaded = body ~= nil and body:find("/problems/overloaded", 1, true) ~= nil
    if overloaded and headers["retry-after"] == nil and headers["Retry-After"] == nil then
      shed_without_retry_after = shed_without_retry_after + 1
    end
  else
    other = other + 1
  end
end

function done(summary, latency, requests)
  local totals = { ok = 0, shed = 0, shed_without_retry_after = 0, other = 0 }
  for _, thread in ipairs(threads) do
    for name, _ in pairs(totals) do totals[name] = totals[name] + thread:get(name) end
  end
  io.write(string.format(
    "RESULT rps=%.1f p50_us=%d p99_us=%d max_us=%d ok=%d shed=%d shed_without_retry_after=%d other=%d socket_errors=%d\n",
    summary.requests / (summary.duration / 1e6), latency:percentile(50), latency:percentile(99), latency.max,
    totals.ok, totals.shed, totals.shed_without_retry_after, totals.other,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
