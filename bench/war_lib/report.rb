# frozen_string_literal: true

require_relative "../lib/pin"

# The bench/war report: one markdown table (req/s during the warm-up and in each measured run,
# p99, per-client min/max, errors including the warm-up's, for each way of serving the app) and issue 9's targets for our servlet filter, judged against jruby-rack
# and our Netty door from the same run.
module WarReport
  RUNS = %w[wrk-c10 wrk-c100 h2load-c10 h2load-c100].freeze

  module_function

  # meta: warmup, duration (seconds), threads (Jetty's), load (/proc/loadavg at the end), at (UTC).
  def render(rows, meta)
    ok = rows.reject { |row| row["failed"] }
    lines = ["# bench/war (#{meta['at']} UTC)", "",
             "bench/hello.ru, RACK_ENV=production, 127.0.0.1; Jetty #{jetty_version} (ee10) with #{meta['threads']} " \
             "threads for both web apps; a #{meta['warmup']} s warm-up (wrk -c100) per server, then, in this order, " \
             "wrk -t2 --latency and h2load --h1 -t1, #{meta['duration']} s each, at 10 and 100 connections; " \
             "load average #{meta['load']} at the end (#{cores} cores, shared).#{BenchPin.sentence(meta['pin'], servers: 'every server', load: 'wrk and h2load')}", "",
             "| server | boot | warm-up | wrk c10 | wrk c100 | p99 c10 | p99 c100 | h2load c10 | h2load c100 | " \
             "min/max c10 | min/max c100 | errors | RSS |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    ok.each { |row| lines << result_row(row) }
    rows.select { |row| row["failed"] }.each { |row| lines << "| #{row['server']} | failed: #{row['failed']} |" }
    lines.concat(["", *targets(ok)])
    war_target = war_rss(ok)
    lines.concat(["", "| target (issue 21) | this run | |", "| --- | --- | --- |", *war_target]) unless war_target.empty?
    "#{lines.join("\n")}\n"
  end

  def result_row(row)
    runs = row["runs"]
    cells = [row["server"], "#{row['boot_s']} s", row.dig("warmup", "rps")&.round || "-", *RUNS.first(2).map { |k| runs[k]["rps"].round },
             *%w[wrk-c10 wrk-c100].map { |k| runs[k]["p99_ms"] ? "#{runs[k]['p99_ms']} ms" : "-" },
             *RUNS.last(2).map { |k| runs[k]["rps"].round },
             *%w[h2load-c10 h2load-c100].map { |k| runs[k]["fairness"] || "-" },
             errors(row), "#{row['rss_mb']} MB"]
    "| #{cells.join(' | ')} |"
  end

  def errors(row)
    [row["warmup"], *row["runs"].values].compact.sum { |r| r["errors"].to_i }
  end

  def targets(rows)
    ours, incumbent, netty = %w[nettyrack-filter jruby-rack nettyrack].map { |name| rows.find { |r| r["server"] == name } }
    return ["(targets need nettyrack-filter, jruby-rack and nettyrack in the run)"] unless ours && incumbent && netty

    vs_incumbent = ratios(ours, incumbent)
    vs_netty = ratios(ours, netty)
    fairness = %w[h2load-c10 h2load-c100].map { |k| ours["runs"][k]["fairness"].to_f }
    ["Targets (issue 9) for nettyrack-filter, ratios per run (#{RUNS.join(', ')}):", "",
     "| target | this run | |", "| --- | --- | --- |",
     "| ≥ 5× jruby-rack's req/s | #{vs_incumbent.map { |r| "#{r}×" }.join(', ')} | #{met(vs_incumbent.min >= 5)} |",
     "| ≥ 60% of the Netty door's req/s | #{vs_netty.map { |r| "#{(100 * r).round}%" }.join(', ')} | " \
     "#{met(vs_netty.min >= 0.6)} |",
     "| per-client min/max ≥ 0.9 (h2load c10, c100) | #{fairness.join(', ')} | #{met(fairness.min >= 0.9)} |",
     "| zero errors | #{errors(ours)} | #{met(errors(ours).zero?)} |"]
  end

  # Issue 21's target for `java -jar`: the executable WAR's RSS within 10 % of bin/nettyrack's.
  def war_rss(rows)
    war, netty = %w[nettyrack-war nettyrack].map { |name| rows.find { |r| r["server"] == name } }
    return [] unless war && netty && war["rss_mb"] && netty["rss_mb"]

    ratio = war["rss_mb"].to_f / netty["rss_mb"]
    ["| `java -jar` RSS within 10 % of bin/nettyrack's | #{war['rss_mb']} MB against #{netty['rss_mb']} MB " \
     "(#{(100 * ratio).round} %) | #{met(ratio <= 1.1)} |"]
  end

  def ratios(row, other)
    RUNS.map do |key|
      theirs = other["runs"][key]["rps"].to_f
      theirs.positive? ? (row["runs"][key]["rps"] / theirs).round(2) : 0.0
    end
  end

  def met(yes)
    yes ? "met" : "**not met**"
  end

  def jetty_version
    Dir[File.join(WarServers::WORK, "jetty/jetty-server-*.jar")].first.to_s[/jetty-server-([\d.]+)\.jar/, 1] || "12"
  end

  def cores
    File.read("/proc/cpuinfo").scan(/^processor\s*:/).size
  end
end
