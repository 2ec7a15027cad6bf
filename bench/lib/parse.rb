# frozen_string_literal: true

# Parsers for the load generators' output, used by bench/lib/record.rb. Plain CRuby, stdlib only.
module BenchParse
  module_function

  UNITS = { "us" => 0.001, "ms" => 1.0, "s" => 1000.0, "m" => 60_000.0, "h" => 3_600_000.0 }.freeze

  # "616.14us" / "1.33ms" / "2.01s" -> milliseconds (Float), nil when unparseable.
  def duration_ms(text)
    m = /\A\s*([\d.]+)\s*(us|ms|s|m|h)\s*\z/.match(text.to_s) or return nil
    m[1].to_f * UNITS.fetch(m[2])
  end

  # wrk 4.x with --latency. Returns a Hash of numbers (req/s, latency percentiles in ms,
  # error counts). Raises ArgumentError when the text is not a finished wrk run.
  def wrk(text)
    rps = text[/^Requests\/sec:\s+([\d.]+)/, 1] or raise ArgumentError, "no 'Requests/sec:' line in wrk output"
    r = { "rps" => rps.to_f }
    if (m = text.match(/^\s*(\d+) requests in ([\d.]+\w+),/))
      r["requests"] = m[1].to_i
      r["elapsed_s"] = duration_ms(m[2]).to_f / 1000.0
    end
    text.scan(/^\s+(50|75|90|99)%\s+([\d.]+\w+)\s*$/) { |pct, val| r["p#{pct}_ms"] = duration_ms(val) }
    socket = { "connect" => 0, "read" => 0, "write" => 0, "timeout" => 0 }
    if (m = text.match(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/))
      socket = { "connect" => m[1].to_i, "read" => m[2].to_i, "write" => m[3].to_i, "timeout" => m[4].to_i }
    end
    r["socket_errors"] = socket
    r["non2xx"] = text[/Non-2xx or 3xx responses:\s+(\d+)/, 1].to_i
    r["errors"] = r["non2xx"] + socket.values.sum
    r
  end

  # h2load (nghttp2 1.5x) run with --h1. Per-client req/s min/max comes from its "req/s" row;
  # latency percentiles from the optional --log-file (lines "start_us\tstatus\tduration_us").
  def h2load(text, log_path = nil)
    m = text.match(/^finished in ([\d.]+\w+), ([\d.]+) req\/s/)
    unless m
      raise ArgumentError, "h2load stopped its clients but never printed results (killed after hanging)" if text.include?("Stopped all clients")

      raise ArgumentError, "no 'finished in' line in h2load output"
    end
    r = { "elapsed_s" => duration_ms(m[1]).to_f / 1000.0, "rps" => m[2].to_f }
    if (m = text.match(/^requests: (\d+) total, (\d+) started, (\d+) done, (\d+) succeeded, (\d+) failed, (\d+) errored, (\d+) timeout/))
      r["requests"] = m[3].to_i
      r["succeeded"] = m[4].to_i
      r["failed"] = m[5].to_i
      r["errored"] = m[6].to_i
      r["timeout"] = m[7].to_i
    end
    if (m = text.match(/^status codes: (\d+) 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx/))
      r["status_codes"] = { "2xx" => m[1].to_i, "3xx" => m[2].to_i, "4xx" => m[3].to_i, "5xx" => m[4].to_i }
    end
    # "failed" already counts HTTP-level failures (4xx/5xx) and the "errored"/"timeout" ones;
    # h2load counts 3xx as success, the bench does not.
    r["errors"] = r.fetch("failed", 0) + r.dig("status_codes", "3xx").to_i
    if (m = text.match(/^req\/s\s*:\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)/))
      r["client_rps_min"] = m[1].to_f
      r["client_rps_max"] = m[2].to_f
      r["client_rps_mean"] = m[3].to_f
      r["client_rps_sd"] = m[4].to_f
      r["fairness"] = m[2].to_f.positive? ? m[1].to_f / m[2].to_f : 0.0
    end
    if (m = text.match(/^time for request:\s+([\d.]+\w+)\s+([\d.]+\w+)\s+([\d.]+\w+)/))
      r["latency_max_ms"] = duration_ms(m[2])
      r["latency_mean_ms"] = duration_ms(m[3])
    end
    r.merge!(h2load_log_percentiles(log_path)) if log_path && File.file?(log_path)
    r
  end

  # Nearest-rank percentiles of the per-request durations in an h2load --log-file.
  def h2load_log_percentiles(path)
    durations = []
    File.foreach(path) do |line|
      f = line.split("\t")
      durations << f[2].to_i if f.size >= 3
    end
    return {} if durations.empty?

    durations.sort!
    pick = ->(q) { durations[[(q * durations.size).ceil - 1, 0].max] / 1000.0 }
    { "p50_ms" => pick.(0.50), "p90_ms" => pick.(0.90), "p99_ms" => pick.(0.99), "logged" => durations.size }
  end
end
