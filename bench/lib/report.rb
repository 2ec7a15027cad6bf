# frozen_string_literal: true

# Builds the benchmark's Markdown report from a run directory written by bench/run:
#   RUN_DIR/meta.txt    key=value lines (versions, settings)
#   RUN_DIR/runs.jsonl  one JSON object per load run (bench/lib/record.rb)
#
#   ruby bench/lib/report.rb RUN_DIR > report.md
require "json"

module BenchReport
  module_function

  SERVERS = {
    "nettyrack" => "nettyrack",
    "raw-netty" => "raw Netty",
    "puma-cluster" => "Puma -w 2 -t 2:2",
    "puma-single" => "Puma -t 16:16",
  }.freeze

  CPU_NAMES = { "puma-single" => "Puma single", "puma-cluster" => "Puma cluster" }.freeze
  CPU_NOTES = {
    "puma-single" => "CRuby's GVL: one thread runs Ruby at a time",
    "puma-cluster" => "2 processes: parallel, like JRuby threads",
  }.freeze

  TARGETS = {
    puma: 2.0,     # nettyrack / best Puma
    raw: 0.5,      # nettyrack / raw Netty
    fairness: 0.8, # per-client min/max req/s
  }.freeze

  def load_meta(dir)
    path = File.join(dir, "meta.txt")
    return {} unless File.file?(path)

    File.readlines(path, chomp: true).filter_map do |line|
      k, v = line.split("=", 2)
      [k, v] if k && v && !k.start_with?("#")
    end.to_h
  end

  def load_runs(dir)
    path = File.join(dir, "runs.jsonl")
    return [] unless File.file?(path)

    File.readlines(path).filter_map { |l| JSON.parse(l) unless l.strip.empty? }
  end

  def num(v, digits = 0)
    return "-" if v.nil?

    s = format("%.#{digits}f", v)
    int, frac = s.split(".")
    int = int.reverse.scan(/\d{1,3}/).join(",").reverse.then { |i| s.start_with?("-") ? "-#{i}" : i }
    frac ? "#{int}.#{frac}" : int
  end

  def ms(v)
    return "-" if v.nil?

    v >= 100 ? num(v, 0) : v >= 10 ? num(v, 1) : num(v, 2)
  end

  def ratio(v, digits = 2)
    v.nil? ? "-" : format("%.#{digits}f", v)
  end

  # Pads a Markdown table so that it also reads as a plain table on a terminal.
  def table(header, rows, right: [])
    all = [header] + rows
    widths = header.each_index.map { |i| all.map { |r| r[i].to_s.length }.max }
    fmt = lambda do |r|
      cells = r.each_with_index.map do |c, i|
        right.include?(i) ? c.to_s.rjust(widths[i]) : c.to_s.ljust(widths[i])
      end
      "| #{cells.join(' | ')} |"
    end
    sep = widths.each_with_index.map { |w, i| right.include?(i) ? "#{'-' * (w + 1)}:" : "-" * (w + 2) }
    [fmt.(header), "|#{sep.join('|')}|", *rows.map(&fmt)].join("\n")
  end

  # The numbered footnotes under a report, and a blank line; nothing without notes.
  def notes(notes)
    return [] if notes.empty?

    ["Notes:", *notes.each_with_index.map { |n, i| "[#{i + 1}] #{n}" }, ""]
  end

  def label(server, meta)
    base = SERVERS.fetch(server, server)
    case server
    when "nettyrack" then meta["jruby"] ? "#{base} (JRuby #{meta['jruby']})" : base
    when "raw-netty" then "#{base} (#{meta['raw_transport'] || 'Netty'})"
    else base
    end
  end

  def find(runs, server:, tool:, conns:, group: "hello")
    runs.find do |r|
      r["server"] == server && r["group"] == group && r["tool"] == tool && r["conns"] == conns && r["status"] == "ok"
    end
  end

  def verdict(value, target)
    return "n/a" if value.nil?

    value >= target ? "met" : "not met"
  end

  def build(dir)
    meta = load_meta(dir)
    runs = load_runs(dir)
    notes = []
    mark = lambda do |r, text|
      notes << text
      "[#{notes.size}]"
    end
    out = []
    out << "# nettyrack benchmark"
    out << ""
    out << "#{meta['date']} on #{meta['host']} (#{meta['cpus']} cores), commit #{meta['commit'] || '?'}."
    out << "Each run #{meta['duration']} s after a #{meta['warmup']} s warm-up per server; " \
           "wrk -t#{meta['wrk_threads']}, h2load --h1 -t#{meta['h2load_threads']}; load and servers share the machine, on 127.0.0.1."
    versions = %w[jruby java cruby puma wrk h2load].filter_map { |k| "#{k} #{meta[k]}" if meta[k] && !meta[k].empty? }
    out << "Versions: #{versions.join(', ')}." unless versions.empty?
    out << "Machine: #{meta['machine']}." if meta["machine"]
    out << "nettyrack's JIT after its runs: #{meta['nettyrack_jit']}; JVM flags: `#{meta['nettyrack_flags']}`." if meta["nettyrack_jit"]
    if meta["pin"] && !meta["pin"].empty?
      server_cpus, load_cpus = meta["pin"].split(":", 2)
      out << "Pinned: every server on CPU #{server_cpus}, wrk and h2load on CPU #{load_cpus} (BENCH_PIN=#{meta['pin']})."
    end
    if meta["load_before"]
      out << "Load average before the run: #{meta['load_before']} (anything else busy on the machine skews every number)."
      busy = meta["load_before"].split.first.to_f
      if busy > 0.5
        out << ""
        out << "**Warning: the machine was already busy (1-minute load #{busy} on #{meta['cpus'] || '?'} cores) when the run " \
               "began: these numbers measure contention too; rerun on an idle machine before comparing.**"
      end
    end
    out << ""

    hello = runs.select { |r| r["group"] == "hello" }
    out << "## Hello world (bench/hello.ru)"
    out << ""
    rows = []
    SERVERS.each_key do |server|
      mine = hello.select { |r| r["server"] == server }
      next if mine.empty?

      mine.each do |r|
        load = r["tool"] ? "#{r['tool']} c#{r['conns']}" : "-"
        if r["status"] != "ok"
          m = mark.(r, "#{label(server, meta)} #{load}: #{r['status']}#{r['reason'] ? ": #{r['reason']}" : ''}")
          rows << [label(server, meta), load, "#{r['status']} #{m}", "-", "-", "-", "-", "-"]
          next
        end
        load = "#{load} #{mark.(r, "#{label(server, meta)} #{load}: #{r['note']}")}" if r["note"]
        clients = r["client_rps_min"] ? "#{num(r['client_rps_min'])} / #{num(r['client_rps_max'])}" : "-"
        rows << [label(server, meta), load, num(r["rps"]), ms(r["p50_ms"]), ms(r["p99_ms"]), num(r["errors"]),
                 clients, r["fairness"] ? ratio(r["fairness"]) : "-"]
      end
    end
    out << table(["server", "load", "req/s", "p50 ms", "p99 ms", "errors", "per-client req/s min / max", "min/max"],
                 rows, right: [2, 3, 4, 5, 6, 7])
    out << ""

    cpu = runs.select { |r| r["group"] == "cpu" }
    unless cpu.empty?
      out << "## CPU-bound (bench/cpu.ru: fib(#{meta['fib'] || '?'}) per request, wrk c#{meta['cpu_conns'] || '?'})"
      out << ""
      rows = []
      base = nil
      cpu.each do |r|
        name = CPU_NAMES.fetch(r["server"], r["server"])
        name = label(r["server"], meta) if r["server"] == "nettyrack"
        threads = r["threads"] || "-"
        if r["status"] != "ok"
          m = mark.(r, "#{name} #{threads}: #{r['status']}#{r['reason'] ? ": #{r['reason']}" : ''}")
          rows << [name, threads, "#{r['status']} #{m}", "-", "-", "-", "-", ""]
          next
        end
        speedup = "-"
        if r["server"] == "nettyrack"
          base ||= r["rps"]
          speedup = base.positive? ? "#{ratio(r['rps'] / base)}x" : "-"
        end
        rows << [name, threads, num(r["rps"]), ms(r["p50_ms"]), ms(r["p99_ms"]), num(r["errors"]), speedup,
                 CPU_NOTES.fetch(r["server"], "")]
      end
      out << table(["server", "config", "req/s", "p50 ms", "p99 ms", "errors", "vs 1st nettyrack row", "note"],
                   rows, right: [2, 3, 4, 5, 6])
      out << ""
      out << "Ruby threads run in parallel on JRuby; on #{meta['cpus'] || 2} cores ~#{meta['cpus'] || 2}x over one thread is the ceiling."
      out << ""
    end

    out << "## Targets"
    out << ""
    rows = []
    nr = ->(tool, c) { find(runs, server: "nettyrack", tool: tool, conns: c) }
    conns_list = hello.filter_map { |r| r["conns"] if r["tool"] == "wrk" }.uniq.sort
    conns_list.each do |c|
      mine = nr.("wrk", c)
      pumas = %w[puma-cluster puma-single].filter_map { |s| find(runs, server: s, tool: "wrk", conns: c) }
      best = pumas.max_by { |r| r["rps"] }
      v = mine && best && best["rps"].positive? ? mine["rps"] / best["rps"] : nil
      which = best ? " (#{SERVERS[best['server']]})" : ""
      rows << ["nettyrack / best Puma#{which}, wrk c#{c} req/s", ratio(v, 3), ">= #{TARGETS[:puma]}", verdict(v, TARGETS[:puma])]
    end
    conns_list.each do |c|
      mine = nr.("wrk", c)
      raw = find(runs, server: "raw-netty", tool: "wrk", conns: c)
      v = mine && raw && raw["rps"].positive? ? mine["rps"] / raw["rps"] : nil
      rows << ["nettyrack / raw Netty, wrk c#{c} req/s", ratio(v, 3), ">= #{TARGETS[:raw]}", verdict(v, TARGETS[:raw])]
    end
    hello.filter_map { |r| r["conns"] if r["tool"] == "h2load" }.uniq.sort.each do |c|
      mine = nr.("h2load", c)
      v = mine && mine["fairness"]
      rows << ["nettyrack fairness (per-client min/max req/s), h2load c#{c}", ratio(v, 3), ">= #{TARGETS[:fairness]}",
               verdict(v, TARGETS[:fairness])]
    end
    nettyrack_cpu = cpu.select { |r| r["server"] == "nettyrack" && r["status"] == "ok" }
    if nettyrack_cpu.size > 1
      first = nettyrack_cpu.first
      nettyrack_cpu.drop(1).each do |r|
        v = first["rps"].positive? ? r["rps"] / first["rps"] : nil
        rows << ["nettyrack CPU-bound #{r["threads"]} / #{first["threads"]} req/s", ratio(v, 3), "> 1 (info)",
                 v.nil? ? "n/a" : (v > 1.2 ? "scales" : "flat")]
      end
    end
    out << table(%w[measure value target verdict], rows, right: [1])
    out << ""
    out.concat(notes(notes))
    out.join("\n")
  end
end

if $PROGRAM_NAME == __FILE__
  dir = ARGV.fetch(0) { abort "usage: ruby bench/lib/report.rb RUN_DIR" }
  puts BenchReport.build(dir)
end
