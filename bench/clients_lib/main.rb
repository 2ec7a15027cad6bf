# frozen_string_literal: true

# bench/clients: runs the selected scenarios (see bench/clients) and writes the report.
require "fileutils"
require_relative "server"
require_relative "scenarios"

module ClientsBench
  RESULTS = ENV.fetch("BENCH_RESULTS", File.expand_path("../results", __dir__))
  ONLY = ENV.fetch("BENCH_ONLY", "all").split(/[ ,]+/)

  def self.setting(name, default) = Integer(ENV.fetch(name, default.to_s))

  def self.run
    run_dir = File.join(RESULTS, "runs", "clients-#{Time.now.strftime('%Y%m%d-%H%M%S')}")
    FileUtils.mkdir_p(run_dir)
    rows = Scenarios::ALL.filter_map do |name, scenario|
      next unless ONLY.include?("all") || ONLY.include?(name)

      warn "[bench clients] #{name}"
      scenario.call(File.join(run_dir, "#{name}.log"))
    end
    report = Scenarios.report(rows)
    puts report
    File.write(File.join(RESULTS, "clients-latest.md"), report)
    File.write(File.join(run_dir, "report.md"), report)
  end
end

ClientsBench.run
