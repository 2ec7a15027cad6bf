# frozen_string_literal: true

# Builds bench/push-redis's Markdown report from its run directory:
#   RUN_DIR/meta.txt    key=value lines (versions, settings, load)
#   RUN_DIR/runs.jsonl  one JSON object per scenario, as bench/push_lib/client prints it
#                       (client/fanout.go, client/failover.go)
#
#   ruby bench/push_lib/report_redis.rb RUN_DIR > report.md
require "json"
require_relative "../lib/report" # BenchReport's table and number helpers

module PushRedisReport
  module_function

  P99_TARGET_MS = 100

  def num(v, digits = 0) = BenchReport.num(v, digits)
  def ms(v) = v.nil? ? "-" : v.negative? ? "never" : BenchReport.ms(v)

  # "all", "ws", "sse", "instance 1", ... in that order, with readable names.
  def groups(map)
    keys = map.keys.sort_by { |k| [%w[all ws sse].index(k) || 3, k] }
    keys.map { |k| [{ "all" => "all", "ws" => "WebSocket", "sse" => "SSE" }.fetch(k, k), map[k]] }
  end

  def fanout(r, meta)
    out = ["## Broadcast to every client through Redis (fanout)", ""]
    return out + ["Not measured: #{r['error']}", ""] unless r["latency"]

    out << "#{r['instances']} instances on one redis-server; #{num(r['open'])} of #{num(r['conns'])} clients open " \
           "(#{r['kinds']} in turn over the instances; opened in #{num(r['open_seconds'], 1)} s). Each broadcast is " \
           "POSTed to the next instance in turn; latency is each client's, from the POST to its receipt, over " \
           "#{r['broadcasts'].size} broadcasts after #{meta['broadcast_warmup']} untimed. " \
           "Load when the instances were up: #{meta['fanout_load_start'] || '?'}."
    out << ""
    rows = groups(r["latency"]).map do |name, p|
      [name, num(p["n"]), ms(p["p50_ms"]), ms(p["p99_ms"]), ms(p["max_ms"]), num(p["missing"])]
    end
    out << BenchReport.table(["clients", "receipts", "p50 ms", "p99 ms", "max ms", "missing"], rows, right: [1, 2, 3, 4, 5])
    out << ""
    lasts = r["broadcasts"].map { |b| b["last_ms"] }
    posts = r["broadcasts"].map { |b| b["post_ms"] }.sort
    out << "Time to the last client: median #{ms(r['last_median_ms'])} ms (#{ms(lasts.min)}–#{ms(lasts.max)}); " \
           "the POST answered after #{ms(posts[posts.size / 2])} ms (median); fewest reached " \
           "#{num(r['broadcasts'].map { |b| b['delivered'] }.min)}."
    p99 = r.dig("latency", "all", "p99_ms")
    out << "Target p99 <= #{P99_TARGET_MS} ms: #{p99 <= P99_TARGET_MS ? 'met' : '**not met**'} (#{ms(p99)} ms)." if p99
    out << ""
  end

  def failover(r, meta)
    out = ["## A Sentinel failover in a #{num(meta['rate'].to_i)} msg/s stream (failover)", ""]
    return out + ["Not measured: #{r['error']}", ""] unless r["recovery"]

    out << "#{r['instances']} instances on redis-sentinel:// (a master, a replica, 3 sentinels: quorum 2, down " \
           "after 1 s); #{num(r['open'])} of #{num(r['conns'])} clients (#{r['kinds']} in turn). #{num(r['published'])} " \
           "numbered messages POSTed in turn to the instances over #{num(r['stream_seconds'])} s " \
           "(#{num(r['achieved_rate'])}/s achieved, at most #{ms(r['max_lag_ms'])} ms behind schedule, " \
           "#{num(r['post_failed'])} POSTs failed); master #{meta['failover_master_before']} " \
           "#{r['killed'] ? 'SIGKILLed' : '**not killed**'} after #{num(r['kill_after_seconds'])} s, " \
           "master afterwards #{meta['failover_master_after'] || '?'} (#{meta['failover_moves'] || '?'} \"failed over\" " \
           "lines in the instances' logs). Load when the instances were up: #{meta['failover_load_start'] || '?'}."
    out << ""
    out << "From the kill until messages POSTed to an instance after it are received again:"
    out << ""
    n = r["instances"]
    rows = r["recovery"].map do |x|
      slowest = "#{ms(x['max_post_ms'])} (at #{num(x['max_post_at_ms'])}; #{num(x['slow_posts'])} over 100 ms)"
      ["instance #{x['instance']}", num(x["posts"]), slowest, ms(x["first_ms"]), *x["by_instance_ms"].map { |v| ms(v) },
       ms(x["all_instances_ms"]), x["clients_never"].to_i.positive? ? "never (#{x['clients_never']} clients)" : ms(x["all_clients_ms"])]
    end
    rows << ["all", num(r["published"]), "", "", *[""] * n, ms(r["all_instances_ms"]), ms(r["all_clients_ms"])]
    head = ["POSTed to", "POSTs", "slowest POST ms (sent at ms; POSTs over 100 ms)", "first receipt ms", *(1..n).map { |j| "at instance #{j} ms" }, "at every instance ms",
            "at every client ms"]
    out << BenchReport.table(head, rows, right: (1..(n + 5)).to_a)
    out << ""
    out << "Per client, messages missed (by number), duplicated and reordered (within one instance's messages):"
    out << ""
    rows = groups(r["loss"]).map do |name, g|
      [name, num(g["clients"]), num(g["with_loss"]), num(g["missed"]), "#{num(g['missed_median'])} / #{num(g['missed_max'])}",
       num(g["gaps"]), num(g["duplicates"]), num(g["reordered"]), num(g["closed"])]
    end
    out << BenchReport.table(["clients", "count", "with loss", "missed", "missed per client, median / max", "gaps",
                              "duplicates", "reordered", "connections closed"], rows, right: (1..8).to_a)
    out << ""
    if r["missed_posted_from_ms"]
      out << "The missed messages were POSTed from #{num(r['missed_posted_from_ms'])} ms to " \
             "#{num(r['missed_posted_to_ms'])} ms after the kill (negative: before it)."
    else
      out << "No message was missed."
    end
    out << ""
  end

  def build(dir)
    meta = BenchReport.load_meta(dir)
    runs = BenchReport.load_runs(dir)
    out = ["# nettyrack push across processes through Redis (bench/push-redis)", ""]
    out << "#{meta['date']} on #{meta['host']} (#{meta['cpus']} cores), commit #{meta['commit'] || '?'}; " \
           "JRuby #{meta['jruby']} on Java #{meta['java']}, Redis #{meta['redis']}; client: Go #{meta['go']} " \
           "(gorilla/websocket, its own SSE reader) on the same machine, 127.0.0.1."
    out << "Command: `#{meta['command']}`. Load average before the run: #{meta['load_before']}, after: #{meta['load_after']}."
    out << ""
    runs.each do |r|
      case r["scenario"]
      when "fanout" then out.concat(fanout(r, meta))
      when "failover" then out.concat(failover(r, meta))
      else out.concat(["## #{r['scenario']}", "", "Not measured: #{r['error']}", ""])
      end
    end
    out.join("\n")
  end
end

if $PROGRAM_NAME == __FILE__
  dir = ARGV.fetch(0) { abort "usage: ruby bench/push_lib/report_redis.rb RUN_DIR" }
  puts PushRedisReport.build(dir)
end
