-- wrk script for benchmarks/api_vs_bare.py: one kind of request, and a machine-readable summary.
-- Arguments (after wrk's "--"): METHOD BODY_FILE KEY_PREFIX [HEADER ...]
--   BODY_FILE "-" for none; KEY_PREFIX "-" for no Idempotency-Key, else every request gets
--   KEY_PREFIX .. thread number .. "-" .. a counter, so no two requests share a key;
--   each HEADER is "Name: value".

local prefix = nil
local counter = 0
local static = nil

function init(args)
  wrk.method = args[1]
  if args[2] ~= "-" then
    local file = assert(io.open(args[2], "rb"))
    wrk.body = file:read("*a")
    file:close()
  end
  if args[3] ~= "-" then
    prefix = args[3] .. tostring(math.random(1, 2147483647)) .. "-"
  end
  for i = 4, #args do
    local name, value = args[i]:match("^([^:]+):%s*(.*)$")
    wrk.headers[name] = value
  end
  static = wrk.format()
end

function request()
  if prefix == nil then
    return static
  end
  counter = counter + 1
  wrk.headers["Idempotency-Key"] = prefix .. counter
  return wrk.format()
end

function done(summary, latency, requests)
  io.write(string.format(
    "RESULT requests=%d duration_us=%d p50_us=%d p99_us=%d status=%d connect=%d read=%d write=%d timeout=%d\n",
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    summary.errors.status, summary.errors.connect, summary.errors.read, summary.errors.write,
    summary.errors.timeout))
end
