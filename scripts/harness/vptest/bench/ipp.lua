-- wrk's script of scripts/bench: POSTs the IPP request in the file BENCH_BODY, counts the answers that are not HTTP
-- 200 with IPP successful-ok (when BENCH_CHECK is set), and prints one line of figures that vptest.bench.load reads.
local threads = {}
local check = os.getenv("BENCH_CHECK") ~= nil

function setup(thread)
    table.insert(threads, thread)
end

function init(args)
    local file = assert(io.open(os.getenv("BENCH_BODY"), "rb"))
    wrk.method = "POST"
    wrk.headers["Content-Type"] = "application/ipp"
    wrk.body = file:read("*a")
    file:close()
    bad = 0
end

if check then
    -- RFC 8010 section 3.1.1: bytes 3 and 4 of a response are its status-code; 0 is successful-ok.
    function response(status, headers, body)
        if status ~= 200 or body == nil or #body < 8 or body:byte(3) ~= 0 or body:byte(4) ~= 0 then
            bad = bad + 1
        end
    end
end

function done(summary, latency, requests)
    local bad_total = 0
    for _, thread in ipairs(threads) do
        bad_total = bad_total + (thread:get("bad") or 0)
    end
    local e = summary.errors
    io.write(string.format(
        "BENCH requests=%d rps=%.1f socket_errors=%d http_errors=%d ipp_errors=%d p50_us=%d p99_us=%d\n",
        summary.requests, summary.requests / (summary.duration / 1e6),
        e.connect + e.read + e.write + e.timeout, e.status, bad_total,
        latency:percentile(50), latency:percentile(99)))
end
