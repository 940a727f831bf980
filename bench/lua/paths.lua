-- wrk script for truco-scorer's bench: GET a list of paths round-robin, optionally
-- paced like a phone (a think time between a connection's requests), and print one
-- JSON line with throughput, latency percentiles and status counts.
--
-- Environment: BENCH_PATHS   file with one request path per line (default: the URL's path)
--              BENCH_DELAY_MS think time per connection between requests (0: closed loop)
--              BENCH_HEADERS  extra header lines "Name: value" separated by "|"

local paths = {}
local next_index = 1
local delay_ms = tonumber(os.getenv("BENCH_DELAY_MS") or "0") or 0
statuses = {}

function init(args)
  local file = os.getenv("BENCH_PATHS")
  if file and file ~= "" then
    for line in io.lines(file) do
      if line ~= "" then paths[#paths + 1] = line end
    end
  end
  local extra = os.getenv("BENCH_HEADERS")
  if extra and extra ~= "" then
    for item in string.gmatch(extra, "[^|]+") do
      local name, value = string.match(item, "^%s*([^:]+):%s*(.*)$")
      if name then wrk.headers[name] = value end
    end
  end
  math.randomseed(os.time())
  next_index = math.random(1, math.max(1, #paths))
end

function request()
  if #paths == 0 then return wrk.format(nil) end
  local path = paths[next_index]
  next_index = next_index % #paths + 1
  return wrk.format("GET", path)
end

if delay_ms > 0 then
  function delay()
    -- +-50% jitter so the phones do not poll in lock step
    return math.floor(delay_ms * (0.5 + math.random()))
  end
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

local threads = {}

function setup(thread)
  threads[#threads + 1] = thread
end

function done(summary, latency, requests)
  local counts = {}
  for _, thread in ipairs(threads) do
    local s = thread:get("statuses")
    if s then
      for code, n in pairs(s) do
        local key = tostring(code)
        counts[key] = (counts[key] or 0) + n
      end
    end
  end
  local parts = {}
  for code, n in pairs(counts) do parts[#parts + 1] = string.format('"%s": %d', code, n) end
  local e = summary.errors
  io.write(string.format(
    'BENCH_JSON {"requests": %d, "duration_us": %d, "bytes": %d, ' ..
    '"p50_us": %d, "p90_us": %d, "p99_us": %d, "max_us": %d, "mean_us": %.1f, ' ..
    '"errors": {"connect": %d, "read": %d, "write": %d, "status": %d, "timeout": %d}, ' ..
    '"statuses": {%s}}\n',
    summary.requests, summary.duration, summary.bytes,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, latency.mean,
    e.connect, e.read, e.write, e.status, e.timeout, table.concat(parts, ", ")))
end
