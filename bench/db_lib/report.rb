# frozen_string_literal: true

require_relative "../lib/pin"
require_relative "../lib/report"
require_relative "../lib/jvm_probe"

# The bench/db report: req/s per test (median of the rounds) with the ratio to Puma measured in
# the same round, the CPU time the server and PostgreSQL spent per request, p99, RSS and errors;
# then issue 25's target for N queries, and the profile when BENCH_PROFILE=1 took one.
module DbReport
  TESTS = { "db" => "one query", "queries" => "N queries", "fortunes" => "fortunes", "updates" => "N updates" }.freeze
  BASE = "puma"

  module_function

  def render(rows, meta)
    tests = TESTS.keys.select { |t| rows.any? { |row| row["runs"][t]&.any? } }
    base = rows.find { |row| row["server"] == BASE }
    lines = ["# bench/db (#{meta['at']} UTC)", "",
             "bench/db_lib/config.ru on Sequel #{sequel_version}, PostgreSQL #{meta['postgres']} on 127.0.0.1 (fsync off), " \
             "N = #{meta['queries']}; wrk -t2 -c#{meta['connections']}, #{meta['duration']} s per run, #{meta['rounds']} rounds, " \
             "servers loaded in turn after #{meta['warmup']} s of warm-up each; load average #{meta['load_before']} before, " \
             "#{meta['load_after']} after (#{Etc.nprocessors} cores, shared by the servers, PostgreSQL and wrk).#{BenchPin.sentence(meta['pin'], servers: 'servers and PostgreSQL', load: 'wrk')}", "",
             "req/s, median of the rounds (× Puma `-w 2 -t 5:5` in the same rounds):", "",
             "| server | #{tests.map { |t| TESTS[t] }.join(' | ')} | RSS | errors |",
             "| --- |#{' ---: |' * tests.size} ---: | ---: |"]
    rows.each do |row|
      cells = tests.map { |t| "#{num(median(row['runs'][t].map { |r| r['rps'] }))} (#{ratio(row, base, t)})" }
      lines << "| #{row['label']} | #{cells.join(' | ')} | #{row['rss_mb']} MB | #{errors(row)} |"
    end
    lines.concat(["", "CPU time per request, server / PostgreSQL (µs, median of the rounds), and p99:", "",
                  "| server | #{tests.map { |t| TESTS[t] }.join(' | ')} |", "| --- |#{' ---: |' * tests.size}"])
    rows.each do |row|
      cells = tests.map do |t|
        runs = row["runs"][t]
        "#{num(median(runs.map { |r| r['server_us'] }))} / #{num(median(runs.map { |r| r['db_us'] }))}, " \
          "p99 #{median(runs.map { |r| r['p99_ms'] })&.round(1)} ms"
      end
      lines << "| #{row['label']} | #{cells.join(' | ')} |"
    end
    lines.concat(["", *target(rows, base)])
    lines.concat(["", *layer(meta["layer"])]) if meta["layer"]&.any?
    lines.concat(["", *BenchJvm.report_lines(meta["machine"], rows)])
    rows.select { |row| row["profile"] }.each { |row| lines.concat(["", "Profile of #{row['label']}, N queries:", "", *row["profile"]]) }
    "#{lines.join("\n")}\n"
  end

  def target(rows, base)
    return ["(the target needs puma in the run)"] unless base && base["runs"]["queries"]&.any?

    tuned = rows.find { |row| row["server"] == "puma-tuned" }
    cells = rows.select { |row| row["server"].start_with?("nettyrack") }.map do |row|
      vs = tuned && row["server"] == "nettyrack-tuned" ? " (#{ratio(row, tuned, 'queries')} Puma with CRuby's best app settings)" : ""
      "#{row['server']} #{ratio(row, base, 'queries')}#{vs}"
    end
    ["| target (issue 25) | this run |", "| --- | --- |", "| N queries ≥ 1× Puma `-w 2 -t 5:5` | #{cells.join('; ')} |"]
  end

  # layer.rb's results: one row per way, CRuby's and JRuby's side by side.
  def layer(results)
    ways = results.map { |r| r["way"] }.uniq
    cell = lambda do |ruby, way|
      r = results.find { |x| x["ruby"] == ruby && x["way"] == way }
      r ? "#{r['cpu_us']} µs (#{num(r['qps'])}/s)" : "-"
    end
    ["The database layer alone (bench/db_lib/layer.rb: one thread, no server; the calling thread's CPU " \
     "per World lookup, and lookups per second):", "",
     "| way | CRuby + pg | JRuby + JDBC |", "| --- | ---: | ---: |",
     *ways.map { |way| "| #{way} | #{cell.call('ruby', way)} | #{cell.call('jruby', way)} |" }]
  end

  # The median over the rounds of this row's req/s over the base's in the same round.
  def ratio(row, base, test)
    return "-" unless base && base["runs"][test]&.any?

    ratios = row["runs"][test].zip(base["runs"][test]).filter_map { |a, b| a["rps"] / b["rps"] if b && b["rps"].positive? }
    ratios.empty? ? "-" : "#{format('%.2f', median(ratios))}×"
  end

  # All errors, and how many of them were wrk's timeouts (no answer within 2 s) and non-2xx answers.
  def errors(row)
    runs = row["runs"].values.flatten
    total = runs.sum { |r| r["errors"].to_i }
    return total.to_s if total.zero?

    "#{total} (#{runs.sum { |r| r['timeouts'].to_i }} timeouts, #{runs.sum { |r| r['non2xx'].to_i }} non-2xx)"
  end

  def median(values)
    values = values.compact.sort
    return nil if values.empty?

    mid = values.size / 2
    values.size.odd? ? values[mid] : (values[mid - 1] + values[mid]) / 2.0
  end

  # BenchReport's thousands separators, on the value rounded half up (its "%.0f" rounds half to even).
  def num(value) = BenchReport.num(value&.round)

  def sequel_version
    require "sequel/version"
    Sequel::VERSION
  rescue LoadError
    "5"
  end
end
