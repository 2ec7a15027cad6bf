# frozen_string_literal: true

# Turns one load run's raw output into one JSON line (appended by bench/run to runs.jsonl).
#
#   ruby bench/lib/record.rb --server NAME --group hello|cpu --tool wrk|h2load --conns N \
#        [--threads 2:2] --output RAW.txt [--log H2LOAD.log]
#   ruby bench/lib/record.rb --server NAME --group hello --skip "why it did not run"
#
# A run whose output does not parse is recorded with "status" => "failed" and the reason.
require "json"
require "optparse"
require_relative "parse"

opts = {}
OptionParser.new do |o|
  o.on("--server NAME") { |v| opts[:server] = v }
  o.on("--group NAME") { |v| opts[:group] = v }
  o.on("--tool NAME") { |v| opts[:tool] = v }
  o.on("--conns N", Integer) { |v| opts[:conns] = v }
  o.on("--threads SPEC") { |v| opts[:threads] = v }
  o.on("--output FILE") { |v| opts[:output] = v }
  o.on("--log FILE") { |v| opts[:log] = v }
  o.on("--skip REASON") { |v| opts[:skip] = v }
  o.on("--note TEXT") { |v| opts[:note] = v }
end.parse!(ARGV)

row = { "server" => opts.fetch(:server), "group" => opts.fetch(:group, "hello") }
row["tool"] = opts[:tool] if opts[:tool]
row["conns"] = opts[:conns] if opts[:conns]
row["threads"] = opts[:threads] if opts[:threads]
row["note"] = opts[:note] if opts[:note]

if opts[:skip]
  row["status"] = "skipped"
  row["reason"] = opts[:skip]
else
  begin
    text = File.read(opts.fetch(:output))
    data = case opts.fetch(:tool)
           when "wrk" then BenchParse.wrk(text)
           when "h2load" then BenchParse.h2load(text, opts[:log])
           else raise ArgumentError, "unknown tool #{opts[:tool]}"
           end
    row["status"] = "ok"
    row.merge!(data)
  rescue StandardError => e
    row["status"] = "failed"
    row["reason"] = "#{e.class}: #{e.message}"
  end
end
puts JSON.generate(row)
