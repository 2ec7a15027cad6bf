# frozen_string_literal: true

require "etc"
require_relative "../rails_lib/servers"

# The servers bench/db runs its app (bench/db_lib/config.ru) on, each a lambda(port) ->
# [env, argv, clean_env?] for RailsServers::Server. Every one gets a Sequel pool as large as the
# threads it runs the app on (DB_POOL), so no thread waits for a connection:
#   nettyrack        bin/nettyrack with its defaults (threads MIN = cores, MAX = max(4, 2 x cores),
#                    and 2 x MAX more while threads wait: --wait-threads),
#                    the app as written (a Sequel dataset per query, a pool checkout per query)
#   nettyrack-tuned  nettyrack with BENCH_TUNED's arguments and the app with BENCH_TUNED_APP's
#                    settings (see config.ru): what measured best on JRuby
#   puma             Debian's Puma on CRuby with the pg gem, puma -w 2 -t 5:5, the app as written
#   puma-tuned       the same Puma with BENCH_PUMA_TUNED_APP's app settings: what measured best on
#                    CRuby, so that what the app's settings give is not credited to the server
module DbServers
  ROOT = RailsServers::ROOT
  APP = File.join(ROOT, "bench/db_lib/config.ru")
  CORES = Etc.nprocessors
  DEFAULT_MAX_THREADS = [4, 2 * CORES].max
  # With the default thread counts the pool may add 2 x MAX threads while its threads wait on
  # the database (--wait-threads); the pool the app gets is as large as all of them.
  DEFAULT_THREADS_AT_MOST = 3 * DEFAULT_MAX_THREADS
  TUNED = ENV.fetch("BENCH_TUNED", "-t 8:8").split
  TUNED_APP = ENV.fetch("BENCH_TUNED_APP", "DB_HOLD=1 DB_QUERY=prepared").split.to_h { |pair| pair.split("=", 2) }
  # Sequel's prepared statements cost CRuby more Ruby than they save PostgreSQL (layer.rb).
  PUMA_TUNED_APP = ENV.fetch("BENCH_PUMA_TUNED_APP", "DB_HOLD=1 DB_QUERY=literalizer").split.to_h { |pair| pair.split("=", 2) }
  PUMA = %w[-w 2 -t 5:5].freeze

  module_function

  # pg: a BenchPostgres; jar: the JDBC driver's jar; pin: ["taskset", "-c", CPUS] or [];
  # sr_signum: the JVM's thread suspension signal (set when profiling, see profile.rb).
  def all(pg, jar:, jruby_opts:, pin: [], sr_signum: nil)
    jruby = { "JRUBY_OPTS" => jruby_opts, "DB_URL" => pg.url(jdbc: true), "DB_JDBC_JAR" => jar }
    jruby["_JAVA_SR_SIGNUM"] = sr_signum.to_s if sr_signum
    cruby = RailsServers::CLEAN.merge("DB_URL" => pg.url, "DB_POOL" => "5")
    {
      "nettyrack" => ->(port) { [jruby.merge("DB_POOL" => DEFAULT_THREADS_AT_MOST.to_s), [*pin, *nettyrack(port)]] },
      "nettyrack-tuned" => lambda do |port|
        [jruby.merge("DB_POOL" => max_threads(TUNED).to_s).merge(TUNED_APP), [*pin, *nettyrack(port, *TUNED)]]
      end,
      "puma" => ->(port) { [cruby, [*pin, *puma(port)], true] },
      "puma-tuned" => ->(port) { [cruby.merge(PUMA_TUNED_APP), [*pin, *puma(port)], true] }
    }
  end

  def nettyrack(port, *args)
    ["jruby", "#{ROOT}/bin/nettyrack", "-q", "-b", "tcp://127.0.0.1:#{port}", "-e", "production", *args, APP]
  end

  def puma(port)
    [RailsServers::CRUBY, "/usr/bin/puma", "-q", "-b", "tcp://127.0.0.1:#{port}", "-e", "production", *PUMA, APP]
  end

  # The most threads nettyrack runs with these arguments: MAX of a "-t MIN:MAX" (or "-t MAX"),
  # plus --wait-threads; without -t the default MAX plus --wait-threads, or the default at most.
  def max_threads(args)
    value = ->(*flags) { args.each_cons(2).find { |flag, _| flags.include?(flag) }&.last }
    spec = value.call("-t", "--threads")
    wait = value.call("--wait-threads")
    return Integer(spec.split(":").last) + Integer(wait || 0) if spec

    wait ? DEFAULT_MAX_THREADS + Integer(wait) : DEFAULT_THREADS_AT_MOST
  end

  def app_settings(settings) = settings.map { |k, v| "#{k}=#{v}" }.join(" ")

  def label(name)
    case name
    when "nettyrack"
      "nettyrack, defaults (-t #{CORES}:#{DEFAULT_MAX_THREADS}, up to #{DEFAULT_THREADS_AT_MOST} while threads wait), " \
        "pool #{DEFAULT_THREADS_AT_MOST}"
    when "nettyrack-tuned"
      args = TUNED.empty? ? "defaults" : "`#{TUNED.join(' ')}`"
      ["nettyrack #{args}", "pool #{max_threads(TUNED)}", *(TUNED_APP.empty? ? [] : [app_settings(TUNED_APP)])].join(", ")
    when "puma" then "Puma `#{PUMA.join(' ')}`, pool 5"
    when "puma-tuned" then "Puma `#{PUMA.join(' ')}`, pool 5, #{app_settings(PUMA_TUNED_APP)}"
    else name
    end
  end
end
