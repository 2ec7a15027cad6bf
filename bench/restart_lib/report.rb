# frozen_string_literal: true

# bench/restart's table: one row per HTTP scenario, each restart's figures in its cells
# (restarts separated by " / "), then the WebSocket scenario, then the targets.
module RestartReport
  module_function

  def render(rows, duration:, every:, restarts:, clients:, ws_clients:, load:)
    http = rows.reject { |row| row["scenario"] == "websocket" }
    ws = rows.find { |row| row["scenario"] == "websocket" }
    lines = ["## bench/restart (#{Time.now.strftime('%Y-%m-%d %H:%M')}, load average before: #{load})", "",
             "The Rails app under #{clients} keep-alive clients for #{duration} s, #{restarts} restarts after a change " \
             "to its code (VERSION), #{every} s after the start and after each new version's first answer. Per " \
             "restart: s from the signal to the new code's first answer; p99 and req/s in the 10 s after the " \
             "signal (the new process booting beside the old); p99 in the 10 s after the switch against the 10 s " \
             "before the signal; the new code's req/s in those 10 s against the run's best 10 s.", "",
             "| scenario | failed / requests | signal → new code (s) | p99 in the 10 s after the signal (ms, req/s vs peak) | p99 after the switch vs before the signal (ms) | new code's req/s vs peak | RSS steady → overlap (MB) |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    http.each { |row| lines << http_row(row) }
    lines.concat(["", ws_line(ws, ws_clients)]) if ws
    lines.join("\n") + "\n"
  end

  def http_row(row)
    return "| #{row['scenario']} | failed: #{row['failed']} | | | | | |" if row["failed"]

    client = row["client"]
    marks = row.dig("marks", "marks") || []
    switches = marks.select { |m| m["label"] == "switch" }
    signals = marks.select { |m| m["label"] == "signal" }
    delays = row["restarts"].map { |r| r["switch_ms"] ? format("%.1f", (r["switch_ms"] - r["signal_ms"]) / 1000.0) : "never" }
    p99 = switches.zip(signals).map { |s, g| "#{s['p99_ms'].round} vs #{g['steady_p99_ms'].round}" }
    overlap = signals.map { |g| "#{g['p99_ms'].round} (#{(g['ok_rps_vs_peak'] * 100).round} %)" }
    peak = switches.map { |s| "#{(s['ok_rps_vs_peak'] * 100).round} %" }
    failures = "#{client['failures']} / #{client['requests']}"
    failures += " (#{client['outcomes'].reject { |k, _| k == 'ok' }.map { |k, v| "#{k} #{v}" }.join(', ')})" if client["failures"].positive?
    overlap_mb = row["scenario"].end_with?("stopstart") ? "-" : row["rss_overlap_mb"] || "-"
    "| #{row['scenario']} | #{failures} | #{delays.join(' / ')} | #{overlap.join(' / ')} | #{p99.join(' / ')} | " \
      "#{peak.join(' / ')} | #{row['rss_steady_mb']} → #{overlap_mb} |"
  end

  def ws_line(row, clients)
    return "websocket: failed: #{row['failed']}" if row["failed"]

    c = row["client"]
    "WebSocket (#{clients} clients, a tick every 100 ms through Redis, the same restarts): " \
      "#{c['connected_at_end']} connected at the end, by server #{c['clients_by_server_at_end'].inspect}; " \
      "#{c['reconnects']} reconnects (ended by #{c['connections_ended_by'].inspect}), downtime p99 " \
      "#{c['reconnect_downtime_p99_ms'].round} ms; lost after reconnecting: #{c['lost_after_reconnect']}; " \
      "gaps on a connection: #{c['gaps']}; RSS #{row['rss_steady_mb']} → #{row['rss_overlap_mb'] || '-'} MB."
  end
end
