# frozen_string_literal: true

# Builds bench/push's Markdown report from its run directory:
#   RUN_DIR/meta.txt    key=value lines (versions, settings)
#   RUN_DIR/runs.jsonl  one JSON object per server, as bench/push_lib/client prints it
#
#   ruby bench/push_lib/report.rb RUN_DIR > report.md
require "json"
require_relative "../lib/report" # BenchReport's table and number helpers

module PushReport
  module_function

  TARGETS = { kb_per_conn: 50, broadcast_ms: 100 }.freeze

  def label(server, meta)
    case server
    when "nettyrack" then meta["jruby"] ? "nettyrack (JRuby #{meta['jruby']}, Java #{meta['java']})" : "nettyrack"
    when "faye-puma" then "faye-websocket #{meta['faye_websocket']} on Puma #{meta['puma']} (CRuby #{meta['cruby']})"
    when "go" then "yardstick: Go #{meta['go']&.delete_prefix('go')} net/http + gorilla/websocket"
    else server
    end
  end

  def kb(bytes) = bytes && BenchReport.num(bytes / 1024.0, 1)
  def mb(bytes) = bytes && BenchReport.num(bytes / 1048576.0, 0)

  def broadcast(r)
    list = r["broadcast_ms"] || []
    return "-" if list.empty?

    "#{BenchReport.ms(r['broadcast_median_ms'])} (#{BenchReport.ms(list.min)}–#{BenchReport.ms(list.max)})"
  end

  def median(list) = list.nil? || list.empty? ? nil : list.sort[list.size / 2]

  def row(r, meta, notes)
    echo = r["echo"] || {}
    problems = [r["error"], r["open_error"], echo["error"]].compact
    problems << "#{echo['errors']} echo errors" if echo["errors"].to_i.positive?
    short = (r["broadcast_delivered"] || []).reject { |n| n == r["open"] }
    problems << "a broadcast reached only #{short.min} sockets" unless short.empty?
    name = label(r["server"], meta)
    unless problems.empty?
      notes << "#{name}: #{problems.join('; ')}"
      name = "#{name} [#{notes.size}]"
    end
    return [name] + ["-"] * 8 unless r["open"]

    [name, BenchReport.num(echo["per_second"]),
     echo["p50_ms"] ? "#{BenchReport.ms(echo['p50_ms'])} / #{BenchReport.ms(echo['p99_ms'])}" : "-",
     "#{BenchReport.num(r['open'])} of #{BenchReport.num(r['conns'])} in #{BenchReport.num(r['open_seconds'], 1)} s",
     "#{mb(r['rss_before'])} → #{mb(r['rss_open'])}", kb(r["rss_per_conn"]), broadcast(r),
     BenchReport.ms(median(r["publish_ms"])),
     BenchReport.num((r["broadcast_delivered"] || []).min)]
  end

  def targets(runs)
    mine = runs.find { |r| r["server"] == "nettyrack" && r["open"].to_i.positive? }
    faye = runs.find { |r| r["server"] == "faye-puma" && r["open"].to_i.positive? }
    go = runs.find { |r| r["server"] == "go" && r["open"].to_i.positive? }
    ratio = ->(a, b) { a && b && b.positive? ? BenchReport.ratio(a.to_f / b) : "-" }
    rows = []
    per = mine && mine["rss_per_conn"] / 1024.0
    rows << ["nettyrack RSS per idle socket (KB)", per ? BenchReport.num(per, 1) : "-", "< #{TARGETS[:kb_per_conn]}",
             per.nil? ? "n/a" : (per < TARGETS[:kb_per_conn] ? "met" : "not met")]
    med = mine && mine["broadcast_median_ms"]
    rows << ["nettyrack broadcast to all, median ms", med ? BenchReport.ms(med) : "-", "< #{TARGETS[:broadcast_ms]}",
             med.nil? ? "n/a" : (med < TARGETS[:broadcast_ms] ? "met" : "not met")]
    if mine && faye
      rows << ["echo round-trips/s, nettyrack / faye-Puma", ratio.(mine.dig("echo", "per_second"), faye.dig("echo", "per_second")), "(info)", ""]
      rows << ["RSS per socket, faye-Puma / nettyrack", ratio.(faye["rss_per_conn"], mine["rss_per_conn"]), "(info)", ""]
      rows << ["broadcast median, faye-Puma / nettyrack", ratio.(faye["broadcast_median_ms"], mine["broadcast_median_ms"]), "(info)", ""]
    end
    if mine && go
      rows << ["broadcast median, nettyrack / Go yardstick", ratio.(mine["broadcast_median_ms"], go["broadcast_median_ms"]),
               "(info)", ""]
    end
    BenchReport.table(%w[measure value target verdict], rows, right: [1])
  end

  # nettyrack's echo over HTTP/1.1 WebSockets and over RFC 8441 streams, side by side.
  def h2_echo(runs, meta)
    mine = runs.find { |r| r["server"] == "nettyrack" && r["echo_h2"] }
    return [] unless mine

    h1 = mine["echo"] || {}
    h2 = mine["echo_h2"]
    line = lambda do |name, e|
      [name, e["error"] ? "- (#{e['error']})" : BenchReport.num(e["per_second"]),
       e["p50_ms"] ? "#{BenchReport.ms(e['p50_ms'])} / #{BenchReport.ms(e['p99_ms'])}" : "-", BenchReport.num(e["errors"].to_i)]
    end
    rows = [line.("HTTP/1.1: #{meta['echo_conns']} WebSockets, a connection each", h1),
            line.("HTTP/2 (RFC 8441): #{meta['echo_conns']} WebSockets as streams of #{h2['h2_connections']} connections", h2)]
    ratio = h1["per_second"].to_f.positive? && h2["per_second"] ? BenchReport.ratio(h2["per_second"] / h1["per_second"]) : "-"
    ["nettyrack WebSocket echo by protocol (h2c, the same app and messages; HTTP/2 / HTTP/1.1 round-trips: #{ratio}):", "",
     BenchReport.table(["WebSockets", "echo round-trips/s", "p50 / p99 ms", "errors"], rows, right: [1, 2, 3]), ""]
  end

  def build(dir)
    meta = BenchReport.load_meta(dir)
    runs = BenchReport.load_runs(dir)
    conns = BenchReport.num(meta["conns"].to_i)
    notes = []
    out = ["# nettyrack push benchmark (bench/push)", ""]
    out << "#{meta['date']} on #{meta['host']} (#{meta['cpus']} cores), commit #{meta['commit'] || '?'}; " \
           "client: Go #{meta['go']} (gorilla/websocket) on the same machine, 127.0.0.1."
    out << "Each server freshly started. Memory: its RSS before and with #{conns} idle sockets (the difference also " \
           "holds one-time costs of the first upgrades). Echo: #{meta['echo_conns']} more sockets ping-ponging for " \
           "#{meta['duration']} s after #{meta['warmup']} s, the idle ones still open. Broadcast: POST /publish to all " \
           "#{conns}, time to the last receipt, median of #{meta['broadcasts']} after #{meta['broadcast_warmup']} untimed " \
           "(and when the POST was answered)."
    out << "Load average before the run: #{meta['load_before']}." if meta["load_before"]
    out << ""
    rows = runs.map { |r| row(r, meta, notes) }
    out << BenchReport.table(["server", "echo round-trips/s", "echo p50 / p99 ms", "idle sockets opened", "RSS MB",
                              "KB per socket", "broadcast ms, median (min–max)", "POST answered ms",
                              "fewest reached"], rows, right: [1, 2, 4, 5, 6, 7, 8])
    out << ""
    out.concat(h2_echo(runs, meta))
    out << targets(runs)
    out << ""
    out.concat(BenchReport.notes(notes))
    out.join("\n")
  end
end

if $PROGRAM_NAME == __FILE__
  dir = ARGV.fetch(0) { abort "usage: ruby bench/push_lib/report.rb RUN_DIR" }
  puts PushReport.build(dir)
end
