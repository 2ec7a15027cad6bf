# frozen_string_literal: true

require_relative "coerce"
require_relative "setting"
require_relative "warmup"

module Nettyrack
  # The settings of restarts and readiness: their SETTINGS rows (ROWS) and readers. Flags and
  # the config file set them, for the launcher alone (rackup and Server.new start no other
  # process):
  #
  #   pidfile          the file that names the serving process (written once it serves); nil: none
  #   warmup           the requests run through the app before serving ([Warmup::Request]);
  #                    nil: none on a plain boot, GET / in a hot restart's new process; false: never;
  #                    :recent: a hot restart's new process warms up on the GET requests the old
  #                    one answered last (RecentRequests), none on a plain boot
  #   warmup_sample    how many of those the old process keeps and hands over
  #   warmup_time      seconds a warm-up runs at most (it stops sooner once throughput is flat)
  #   warmup_requests  answers after which it stops; 0: no count
  #   restart_timeout  seconds a hot restart's new process has to serve, or it is given up
  #   restart_nice     how much lower in priority (nice) a hot restart's new process boots and
  #                    warms up than this one serves at; 0: the same
  #   restart_with     :process (a hot restart) or :reload (AppReload) for a restart signal or a touch
  #   reload_canary    seconds over which a reload's new code takes over new requests
  #   reload_errors    points of 5xx answers more than the old code's at which a reload rolls back
  #   tmp_restart      a touch of tmp/restart.txt asks for a hot restart (TmpRestart)
  #
  # Flow: SETTINGS rows → CLI / config file → Configuration → Lifetime, Warmup, HotRestart, AppReload, Pidfile.
  module RestartSettings
    ROWS = [
      Setting.new(:pidfile, nil, ->(value) { RestartSettings.pidfile(value) }, group: :restarts, flags: ["--pidfile FILE"],
                  help: "write the serving process's pid to FILE"),
      Setting.new(:warmup, nil, ->(value) { RestartSettings.warmup(value) }, group: :restarts, flags: ["--warmup FILE"],
                  dsl: :warmup, help: ["before serving, run FILE's requests through the app (one a",
                                       "line: GET /path); default: none, GET / in a hot restart;",
                                       "recent: a hot restart warms up on the GETs last answered"],
                  also: [Setting::Alias.new(flag: "--no-warmup", help: "never warm up, not even in a hot restart", value: false)]),
      Setting.new(:warmup_time, 120, ->(value) { RestartSettings.warmup_time(value) }, group: :restarts,
                  flags: ["--warmup-time SECONDS"], help: ["the longest a warm-up runs; it stops sooner once",
                                                           "throughput is flat (default %{default}s)"]),
      Setting.new(:warmup_requests, 0, :count, group: :restarts, flags: ["--warmup-requests N"],
                                               help: "stop a warm-up after N answers (default %{default}: no count)"),
      Setting.new(:warmup_sample, 1000, ->(value) { RestartSettings.warmup_sample(value) }, group: :restarts,
                  flags: ["--warmup-sample N"], help: ["with --warmup recent: how many of the last GET requests",
                                                       "a hot restart hands over (default %{default})"]),
      Setting.new(:restart_timeout, 300, ->(value) { RestartSettings.restart_timeout(value) }, group: :restarts,
                  flags: ["--restart-timeout SECONDS"], help: ["time a hot restart's new process has to serve",
                                                               "(default %{default}s)"]),
      Setting.new(:restart_nice, 10, ->(value) { RestartSettings.restart_nice(value) }, group: :restarts,
                  flags: ["--restart-nice N"], help: ["a hot restart's new process boots and warms up at nice +N,",
                                                      "so this one keeps serving first (default %{default}; 0: the same)"]),
      Setting.new(:restart_with, :process, ->(value) { RestartSettings.restart_with(value) }, group: :restarts,
                  flags: ["--restart-with WAY"], help: ["what SIGUSR2, SIGUSR1 and tmp/restart.txt do: process, a",
                                                        "hot restart (default); reload, the app reloaded in this",
                                                        "JVM (nettyrack ctl reload-app does that always)"]),
      Setting.new(:reload_canary, 30, ->(value) { RestartSettings.reload_canary(value) }, group: :restarts,
                  flags: ["--reload-canary SECONDS"], help: ["a reload's new code gets a share of new requests growing",
                                                             "from 1 % to all over this time (default %{default}s)"]),
      Setting.new(:reload_errors, 5, ->(value) { RestartSettings.reload_errors(value) }, group: :restarts,
                  flags: ["--reload-errors PERCENT"], help: ["roll a reload back when its new code answers this many",
                                                             "points more 5xx than the old (default %{default})"]),
      Setting.new(:tmp_restart, false, :boolean, group: :restarts, flags: ["--[no-]tmp-restart"], bare: true,
                                                 help: ["hot restart when tmp/restart.txt is touched (Puma's",
                                                        "plugin :tmp_restart)"])
    ].freeze
    DEFAULTS = ROWS.to_h { |row| [row.name, row.default] }.freeze
    NAMES = DEFAULTS.keys.freeze

    module_function

    # --warmup FILE / `warmup "FILE"`: the file's requests; false, "off", "none" or "false": never;
    # "recent": the old process's last GET requests, in a hot restart (a file named so: ./recent).
    def warmup(value)
      return false if [false, "off", "none", "false"].include?(value)
      return :recent if [:recent, "recent"].include?(value)

      Warmup.read(value.to_s)
    end

    def warmup_time(value)
      seconds = Coerce.seconds(value)
      raise ConfigError, "a warm-up needs more than 0 s (turn it off with --no-warmup)" unless seconds.positive?

      seconds
    end

    def warmup_sample(value)
      count = Coerce.count(value)
      raise ConfigError, "a warm-up sample holds 1 request or more, got #{count}" unless count.positive?

      count
    end

    # --restart-with process|reload: what a restart signal or a touch of tmp/restart.txt does.
    def restart_with(value)
      way = value.to_s.strip.downcase
      return way.to_sym if %w[process reload].include?(way)

      raise ConfigError, "unknown restart way #{value.to_s.inspect} (use process, a hot restart, or reload, " \
                         "the app reloaded in this JVM)"
    end

    def reload_canary(value)
      Coerce.seconds(value)
    end

    def reload_errors(value)
      percent = Float(value.to_s.delete_suffix("%"), exception: false)
      return percent if percent && percent >= 0 && percent <= 100

      raise ConfigError, "#{value.to_s.inspect} is not a share of answers in percent (0 to 100)"
    end

    def restart_timeout(value)
      seconds = Coerce.seconds(value)
      raise ConfigError, "a hot restart needs more than 0 s to boot" unless seconds.positive?

      seconds
    end

    def restart_nice(value)
      nice = Coerce.count(value)
      raise ConfigError, "#{value.inspect} is not a nice value to add (0 to 19)" if nice > 19

      nice
    end

    def pidfile(value)
      text = value.to_s
      raise ConfigError, "the pid file needs a path" if text.strip.empty?

      text
    end
  end
end
