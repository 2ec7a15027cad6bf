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

  # One row per failover: the figures the issue asks for.
  def failover_summary(list, meta)
    out = ["## A Sentinel failover in a #{num(meta['rate'].to_i)} msg/s stream (failover)", ""]
    first = list.find { |r| r["recovery"] }
    if first
      out << "#{first['instances']} instances on redis-sentinel:// (a master, a replica, 3 sentinels: quorum 2, down " \
             "after 1 s); #{num(first['conns'])} clients (#{first['kinds']} in turn); #{num(first['published'])} numbered " \
             "messages POSTed in turn to the instances over #{num(first['stream_seconds'])} s; the master SIGKILLed " \
             "after #{num(first['kill_after_seconds'])} s. #{list.size} failover(s), each on fresh servers. Recovery: " \
             "from the kill until messages POSTed to each instance after it reach a client of every instance, and " \
             "every client. Missed: by number, per client. History: the instances' --push-history (none: without)."
      out << ""
    end
    rows = list.each_with_index.map do |r, i|
      next ["#{i + 1}: #{r['error']}"] + [""] * 10 unless r["recovery"]

      all = r.dig("loss", "all") || {}
      slowest = r["recovery"].map { |x| x["max_post_ms"] }.max
      ["#{i + 1}", history(meta, i + 1), ms(r["all_instances_ms"]), ms(r["all_clients_ms"]),
       "#{num(all['with_loss'])} of #{num(all['clients'])}", num(all["missed"]),
       "#{num(all['missed_median'])} / #{num(all['missed_max'])}", "#{num(all['duplicates'])} / #{num(all['reordered'])}",
       ms(slowest), "#{num(r['achieved_rate'])}/s", ms(r["max_lag_before_kill_ms"])]
    end
    out << BenchReport.table(["failover", "history", "every instance again ms", "every client again ms", "clients with loss",
                              "missed", "missed per client, median / max", "duplicates / reordered",
                              "slowest POST ms", "POSTed", "behind schedule before the kill ms"], rows, right: (2..10).to_a)
    out << ""
    out << "Target with history: 0 messages missed by any client. Without one, pub/sub is at most once and the " \
           "loss is what Redis did not deliver while the instances reconnected. A stream already seconds behind " \
           "schedule before the kill means the machine did not keep up with clients × rate deliveries a second: the " \
           "figures then measure that, not the failover."
    out << ""
  end

  # The Nth failover's --push-history: "none" or "N messages".
  def history(meta, index)
    size = meta["failover-#{index}_history"].to_i
    size.positive? ? "#{num(size)} messages" : "none"
  end

  def failover(r, meta, index)
    key = "failover-#{index}"
    out = ["### Failover #{index} (history: #{history(meta, index)})", ""]
    return out + ["Not measured: #{r['error']}", ""] unless r["recovery"]

    out << "#{num(r['open'])} of #{num(r['conns'])} clients open; #{num(r['published'])} messages POSTed " \
           "(#{num(r['achieved_rate'])}/s achieved, at most #{ms(r['max_lag_ms'])} ms behind schedule, " \
           "#{ms(r['max_lag_before_kill_ms'])} ms before the kill, " \
           "#{num(r['post_failed'])} POSTs failed); master #{meta["#{key}_master_before"]} " \
           "#{r['killed'] ? 'SIGKILLed' : '**not killed**'} after #{num(r['kill_after_seconds'])} s, " \
           "master afterwards #{meta["#{key}_master_after"] || '?'} (#{meta["#{key}_moves"] || '?'} \"failed over\" " \
           "lines in the instances' logs). Load when the instances were up: #{meta["#{key}_load_start"] || '?'}."
    out << ""
    out << "From the kill (ms) until messages POSTed to an instance after it are received again:"
    out << ""
    n = r["instances"]
    rows = r["recovery"].map do |x|
      slowest = "#{ms(x['max_post_ms'])} (at #{num(x['max_post_at_ms'])}; #{num(x['slow_posts'])} over 100 ms)"
      ["instance #{x['instance']}", num(x["posts"]), slowest, ms(x["first_ms"]), *x["by_instance_ms"].map { |v| ms(v) },
       ms(x["all_instances_ms"]), x["clients_never"].to_i.positive? ? "never (#{x['clients_never']} clients)" : ms(x["all_clients_ms"])]
    end
    rows << ["all", num(r["published"]), "", "", *[""] * n, ms(r["all_instances_ms"]), ms(r["all_clients_ms"])]
    head = ["POSTed to", "POSTs", "slowest POST ms (sent at; POSTs over 100 ms)", "first receipt",
            *(1..n).map { |j| "at instance #{j}" }, "at every instance", "at every client"]
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
    failovers, others = runs.partition { |r| r["scenario"].to_s.start_with?("failover") }
    others.each do |r|
      out.concat(r["scenario"] == "fanout" ? fanout(r, meta) : ["## #{r['scenario']}", "", "Not measured: #{r['error']}", ""])
    end
    unless failovers.empty?
      out.concat(failover_summary(failovers, meta))
      failovers.each_with_index { |r, i| out.concat(failover(r, meta, i + 1)) }
    end
    out.join("\n")
  end
end

if $PROGRAM_NAME == __FILE__
  dir = ARGV.fetch(0) { abort "usage: ruby bench/push_lib/report_redis.rb RUN_DIR" }
  puts PushRedisReport.build(dir)
end
