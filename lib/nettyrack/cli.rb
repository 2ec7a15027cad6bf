# frozen_string_literal: true

require "etc"
require "optparse"
require_relative "configuration"
require_relative "puma_answers"
require_relative "settings"
require_relative "version"

module Nettyrack
  # The command line: ARGV → a settings layer (#settings, the top layer Configuration.merge
  # gets), the config file to read (#config_file), and what to do (#action: :run, :help or
  # :version). Parsing only: nothing is loaded, bound or printed here.
  #
  #   bin/nettyrack → Launcher → here (flags and --help made from the SETTINGS rows, read by
  #   Setting#read) → Configuration.merge → ServerSetup (JavaConfig → ServerConfig, Java) → Server
  class CLI
    attr_reader :settings, :config_file, :no_config, :action

    # env: where `--pubsub redis` finds $REDIS_URL.
    def initialize(cores: Etc.nprocessors, env: ENV)
      @cores = cores
      @env = env
      @settings = {}
      @config_file = nil
      @no_config = false
      @action = :run
      @parser = build_parser
    end

    def parse(argv)
      rest = @parser.parse(argv)
      raise ConfigError, "one rackup file at most, got: #{rest.join(' ')}" if rest.size > 1

      @settings[:rackup] = rest.first if rest.first
      self
    rescue OptionParser::ParseError => e
      raise ConfigError, "#{e.message} (see nettyrack --help)"
    end

    # Puma's flags of cluster mode and forking: accepted, and answered once at boot (PumaAnswers).
    PUMA_FLAGS = { ["-w", "--workers N", "Puma's cluster mode: one JVM uses every core here"] => :workers,
                   ["--preload", "Puma's: the app always loads once, before serving"] => :preload_app!,
                   ["--fork-worker [REQUESTS]", "Puma's: no forked workers here"] => :fork_worker,
                   ["--prune-bundler", "Puma's: no forked workers here (each said at boot)"] => :prune_bundler }.freeze

    def help
      @parser.help
    end

    private

    def build_parser
      OptionParser.new(nil, 30) do |opts|
        opts.banner = "Usage: nettyrack [options] [config.ru]\n\n" \
                      "Serves the Rack app in config.ru (default ./config.ru) on JRuby with Netty."
        Settings::GROUPS.each do |group, heading|
          opts.separator "\n#{heading}"
          config_flag(opts) if group == :running
          Settings.in_group(group).each { |row| flags(opts, row) }
          puma_flags(opts) if group == :process
        end
        common(opts)
        notes(opts)
      end
    end

    def config_flag(opts)
      opts.on("-C", "--config FILE", "read settings from a Ruby config file (a Puma config",
               "file too); flags win over it. Default: config/nettyrack.rb,",
               "else config/puma.rb, when there") do |value|
        @config_file = value
      end
      opts.on("--no-config", "read no config file, even if one of those is there") { @no_config = true }
    end

    # A SETTINGS row's flag (none for a setting that has none), then its other spellings.
    def flags(opts, row)
      return unless row.flags

      opts.on(*row.flags, *row.help_lines) do |value|
        value = row.bare if value.nil?
        row.lay(@settings, read(row.flag) { row.read(value, @env) })
      end
      row.also.select(&:flag).each { |aka| opts.on(aka.flag, aka.help) { row.lay(@settings, aka.value) } }
    end

    def puma_flags(opts)
      PUMA_FLAGS.each do |switches, name|
        opts.on(*switches) do |value|
          spelled = [switches.find { |switch| switch.start_with?("--") }[/\A[\w-]+/], value == true ? nil : value].compact.join(" ")
          Settings.fetch(:not_applied).lay(@settings, PumaAnswers.line(name, spelled, "command line"))
        end
      end
    end

    def common(opts)
      opts.separator "\nOther:"
      opts.on("-v", "--version", "print the version and exit") { @action = :version }
      opts.on("-h", "--help", "print this help and exit") { @action = :help }
    end

    def notes(opts)
      min, max = Configuration.default_threads(@cores)
      opts.separator <<~NOTES

        Precedence: flags here, then $PORT (port only), then the config file (-C), then defaults.
          So `-p`/`-b` win over $PORT, and $PORT wins over `port`/`bind` in the config file.
        Threads default: $RAILS_MAX_THREADS (with $RAILS_MIN_THREADS, else a fixed pool) when set,
          else MIN = cores, MAX = max(4, 2 x cores): #{min}:#{max} on this machine.
        SIGINT or SIGTERM: stop accepting, let requests finish (--shutdown-timeout), exit 0;
          so does `nettyrack ctl stop` (POST /stop) with --control-url.
        SIGUSR2 (or SIGUSR1, or `nettyrack ctl restart`): hot restart. The same command starts
          again, takes the listening sockets over, warms up, serves; then this process drains.
        SIGHUP: reopen the log files (--redirect-stdout/--redirect-stderr, --access-log) and
          reload the certificates of ssl:// listeners.
        `nettyrack war [APP_DIR]` packages the app as a WAR (see `nettyrack war --help`).
      NOTES
    end

    def read(flag)
      yield
    rescue ConfigError => e
      raise ConfigError, "invalid #{flag}: #{e.message}"
    end
  end
end
