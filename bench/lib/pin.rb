# frozen_string_literal: true

# BENCH_PIN=SERVER_CPUS:LOAD_CPUS, as bench/run takes it: the servers run on SERVER_CPUS and the
# load generator on LOAD_CPUS (taskset lists), so a server gets exactly those cores. For the
# Ruby benches (bench/db, bench/war): the setting checked once, a command prefix for each side,
# and the sentence their reports print.
module BenchPin
  FORMAT = /\A[0-9,-]+:[0-9,-]+\z/

  module_function

  # [server prefix, load prefix] for the setting +value+ (both empty when it is empty); a bad
  # value ends the bench +bench+ with one line.
  def prefixes(value, bench)
    return [[].freeze, [].freeze] if value.empty?

    abort "#{bench}: BENCH_PIN must be SERVER_CPUS:LOAD_CPUS (taskset lists, e.g. 0:1), not '#{value}'" unless value.match?(FORMAT)

    value.split(":").map { |cpus| ["taskset", "-c", cpus].freeze }
  end

  # The report's sentence for a run pinned as +value+, "" when it was not; +servers+ and +load+
  # say what ran on each side.
  def sentence(value, servers:, load:)
    return "" if value.to_s.empty?

    server_cpus, load_cpus = value.split(":", 2)
    " Pinned: #{servers} on CPU #{server_cpus}, #{load} on CPU #{load_cpus} (BENCH_PIN=#{value})."
  end
end
