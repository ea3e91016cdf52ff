-- wrk script of the public API benchmark (public-api.bench.ts runs it; not meant to be run by hand).
--
--   BENCH_LINES   a file with one request per line: an address (GET <BENCH_PATH><line>) or a
--                 JSON body (POST <BENCH_PATH> with that body)
--   BENCH_METHOD  GET (default) or POST
--   BENCH_PATH    the path, or the path prefix the address is appended to (default /v1/ip/)
--   BENCH_API_KEY sent as "Authorization: Bearer <key>" when set
--
-- Each thread walks the lines from its own offset, so the threads send different addresses and
-- no address repeats within a run shorter than the list. `done` prints one line
-- "WRK_RESULT {json}" with the counts and latency percentiles (microseconds) for the harness.
-- There is no `response` callback on purpose: defining one makes wrk hand every answer to Lua.

local method = os.getenv("BENCH_METHOD") or "GET"
local path = os.getenv("BENCH_PATH") or "/v1/ip/"
local key = os.getenv("BENCH_API_KEY")
local threads = {}
local lines = {}
local index = 1

function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end

function init(_args)
  for line in io.lines(os.getenv("BENCH_LINES")) do
    if line ~= "" then lines[#lines + 1] = line end
  end
  assert(#lines > 0, "BENCH_LINES has no lines")
  -- Far apart offsets: with 1,000,000 addresses two threads never meet within a run.
  index = (id * 7919 * 61) % #lines + 1
  if key ~= nil and key ~= "" then wrk.headers["Authorization"] = "Bearer " .. key end
  if method == "POST" then wrk.headers["Content-Type"] = "application/json" end
end

function request()
  local line = lines[index]
  index = index + 1
  if index > #lines then index = 1 end
  if method == "POST" then return wrk.format("POST", path, nil, line) end
  return wrk.format("GET", path .. line, nil, nil)
end

function done(summary, latency, _requests)
  local e = summary.errors
  io.write(string.format(
    'WRK_RESULT {"requests":%d,"duration_us":%d,"bytes":%d,"errors_connect":%d,"errors_read":%d,' ..
      '"errors_write":%d,"errors_status":%d,"errors_timeout":%d,"latency_mean_us":%.1f,"latency_p50_us":%d,' ..
      '"latency_p90_us":%d,"latency_p99_us":%d,"latency_max_us":%d}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency.mean, latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max))
end
