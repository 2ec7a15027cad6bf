# frozen_string_literal: true

# The bench/rails report: one markdown table of results, one of the warm-up curves, and the
# issue's targets judged against Puma's cluster mode from the same run.
require_relative "../lib/jvm_probe"

module RailsReport
  module_function

  def render(rows, curve:, duration:, machine: {})
    ok = rows.reject { |row| row["failed"] }
    lines = ["# bench/rails (#{Time.now.utc.strftime('%Y-%m-%d %H:%M')} UTC)", "",
             "examples/rails (Rails #{rails_version}), RACK_ENV=production; wrk -t2, #{duration} s per run " \
             "after a #{curve} s warm-up curve at 100 connections; load #{File.read('/proc/loadavg').split.first(3).join(' ')}.", "",
             "| server | boot | req/s at 60 s (of peak) | hello c10 | hello c100 | json c10 | json c100 | p99 hello c100 | RSS | errors | stop under load |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    ok.each { |row| lines << result_row(row) }
    rows.select { |row| row["failed"] }.each { |row| lines << "| #{row['server']} | failed: #{row['failed']} |" }
    lines.concat(["", "Warm-up (req/s per 10 s at 100 connections, from boot):", ""])
    ok.each { |row| lines << "- #{row['server']}: #{row['curve'].map { |r| r['rps'].round }.join(' ')}" }
    lines.concat(["", *targets(ok), "", *BenchJvm.report_lines(machine, ok)])
    "#{lines.join("\n")}\n"
  end

  def result_row(row)
    runs = row["runs"]
    peak = peak(row)
    at60 = row["curve"][5]&.fetch("rps") || 0
    errors = (row["curve"] + runs.values).sum { |r| r["errors"].to_i }
    cells = [row["server"], "#{row['boot_s']} s", "#{at60.round} (#{pct(at60, peak)})",
             *%w[hello-c10 hello-c100 json-c10 json-c100].map { |k| runs[k]["rps"].round },
             "#{runs.dig('hello-c100', 'p99_ms')} ms", memory(row), errors,
             row["stop_s"] ? "#{row['stop_s']} s" : "killed"]
    "| #{cells.join(' | ')} |"
  end

  # RSS at the end of the runs; in a dyno (memory cgroup) also its peak use and OOM kills.
  def memory(row)
    dyno = row["dyno"]
    return "#{row['rss_mb']} MB" unless dyno

    "#{row['rss_mb']} MB (#{dyno['limit_mb']} MB dyno: peak #{dyno['peak_mb']} MB, #{dyno['oom_kills']} OOM kills)"
  end

  def peak(row)
    (row["curve"].map { |r| r["rps"] } + row["runs"].values.map { |r| r["rps"] }).max.to_f
  end

  def pct(value, whole)
    whole.positive? ? "#{(100 * value / whole).round}%" : "-"
  end

  def targets(rows)
    ours = rows.find { |row| row["server"] == "nettyrack" }
    puma = rows.find { |row| row["server"] == "puma-cluster" }
    return ["(targets need both nettyrack and puma-cluster in the run)"] unless ours && puma

    ratio = ->(key) { (ours["runs"][key]["rps"] / puma["runs"][key]["rps"]).round(2) }
    at60 = ours["curve"][5]&.fetch("rps").to_f / peak(ours)
    errors = (ours["curve"] + ours["runs"].values).sum { |r| r["errors"].to_i }
    heroku = rows.find { |row| row["server"] == "nettyrack-heroku" }
    ["| target | this run |", "| --- | --- |",
     "| hello and JSON ≥ Puma `-w 2 -t 2:2` (on the way to 2×) | hello #{ratio.call('hello-c10')}× / #{ratio.call('hello-c100')}×, " \
     "json #{ratio.call('json-c10')}× / #{ratio.call('json-c100')}× (c10 / c100) |",
     "| ≥ 80% of peak within 60 s of boot | #{(100 * at60).round}% |",
     "| RSS ≤ 300 MB under 100 clients (issue 21) | #{ours['rss_mb']} MB |",
     "| zero errors at 100 connections, p99 below Puma's | #{errors} errors, p99 #{ours['runs'].dig('hello-c100', 'p99_ms')} ms " \
     "vs #{puma['runs'].dig('hello-c100', 'p99_ms')} ms |",
     *(heroku ? ["| fits a 512 MB Heroku dyno (`-Xmx300m -Xss512k`), no errors once warm | #{memory(heroku)}, " \
                 "#{heroku['runs'].values.sum { |r| r['errors'].to_i }} errors once warm " \
                 "(#{heroku['curve'].sum { |r| r['errors'].to_i }} in the warm-up curve) |"] : []),
     *dyno_target(heroku, rows.find { |row| row["server"] == "puma-heroku" })]
  end

  # Issue 21: in the same kind of 512 MB dyno, nettyrack ≥ 1.5× Puma -w 2 -t 2:2 after the
  # warm-up curve (its last 10 s) and in the runs at 100 connections.
  def dyno_target(ours, puma)
    return [] unless ours && puma

    last = ->(row) { row["curve"].last["rps"] }
    ratio = ->(a, b) { b.positive? ? (a / b).round(2) : 0.0 }
    curve = ratio.call(last.call(ours), last.call(puma))
    c100 = %w[hello-c100 json-c100].map { |k| ratio.call(ours["runs"][k]["rps"], puma["runs"][k]["rps"]) }
    ["| in a 512 MB dyno, ≥ 1.5× Puma `-w 2 -t 2:2` in the same dyno | #{curve}× in the curve's last 10 s " \
     "(#{last.call(ours).round} against #{last.call(puma).round} req/s), hello #{c100[0]}× and json #{c100[1]}× at c100 |"]
  end

  def rails_version
    File.read("/usr/share/rubygems-integration/all/specifications/rails-6.1.7.10.gemspec")[/version = "([^"]+)"/, 1]
  rescue StandardError
    "6.1"
  end
end
