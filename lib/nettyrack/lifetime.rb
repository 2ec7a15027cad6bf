# frozen_string_literal: true

require_relative "app_reload"
require_relative "boot_checks"
require_relative "boot_line"
require_relative "hooks"
require_relative "hot_restart"
require_relative "orders"
require_relative "reload_signal"
require_relative "restarts"
require_relative "server_log"
require_relative "signals"
require_relative "systemd"
require_relative "tmp_restart"
require_relative "warmup"

module Nettyrack
  # One server's life in this process, from its app loaded to the exit status:
  #
  #   worker_boot hooks → Server.new (the launcher's ServerSetup) → #open:        booting
  #     listeners bound, or taken over (Inheritance)
  #   → warm-up, when there is one (a hot restart's new process: GET / at least)  warming
  #   → #serve; then the old process (a hot restart), systemd, the pid and state
  #     files and the boot lines are told; booted hooks; tmp/restart.txt watched  serving
  #   → orders (Orders) until a stop; reloads of the app in this JVM are AppReload's (:reload,
  #     and :restart with restart_with :reload), the hot restarts' are Restarts':
  #       :restart  restart hooks, a new process is started   :failed  it will not serve: go on
  #                 (HotRestart)
  #       :served   it serves: hand the listeners over, drain  :stop    drain
  #   → Server#stop → worker_shutdown and stopped hooks → 0                       draining
  #
  # A restart asked for while one is in progress, or while warming up, is never lost: such
  # orders are queued as one more restart (Restarts), which starts once this process serves,
  # at once when the one in progress fails, and goes to the new process (as SIGUSR2) when it
  # serves, since that one may have read the files before they changed.
  #
  # SIGHUP, all along, reopens the log files and reloads the certificates (ReloadSignal).
  #
  # Every step that can fail for a reason a person can act on raises a Nettyrack::Error; the
  # launcher says it in one line (and tells the old process of a hot restart).
  class Lifetime
    # setup: the ServerSetup the launcher made from its Configuration, which the server runs with.
    # restart: [program, *arguments], env, directory: how this process was started, for a hot restart.
    # files: the pid file and state file to write once serving (nil when not asked for); logs:
    # what SIGHUP reopens (StdioRedirect, the access log's File).
    # config_file: the config file the settings came from (nil: none), which a reload reads
    # again, and config_layer what it said at boot.
    def initialize(setup, inheritance:, files:, restart:, out:, err:, logs: [], config_file: nil, config_layer: {})
      @setup = setup
      @config = setup.configuration
      @reload_check = ReloadCheck.new(config_file: config_file, layer: config_layer, env: restart.fetch(:env))
      @inheritance = inheritance
      @pidfile, @state_file = files.values_at(:pidfile, :state_file)
      @restart = restart
      @logs = logs
      @out = out
      @log = ServerLog.new(out, @config[:log_format])
      @err = err
      @systemd = Systemd.new(restart.fetch(:env), err: err)
      @hooks = Hooks.new(@config[:hooks], err: err)
    end

    def run(app)
      @orders = Orders.new.trap(Orders::SIGNALS)
      @hooks.run(:worker_boot)
      server = open(app)
      server.remember_recent(@config[:warmup_sample]) if @config[:warmup] == :recent
      @orders.relay(server.orders) if server.control_url
      @restarts = restarts(server)
      @reload = AppReload.new(server, @orders, @config, check: @reload_check, restarts: @restarts, say: method(:say), err: @err)
      reload = ReloadSignal.new(server, logs: @logs, out: @out, err: @err).trap
      stop = warm_up(server)
      stop ||= serving(server)
      finish(server, stop)
    ensure
      @watch&.stop
      @reload&.finish
      reload&.restore
      @orders&.restore
    end

    private

    def open(app)
      Server.new(app, @setup, development: @config.development?, pubsub: Nettyrack.pubsub).inherit(@inheritance.sockets).open
    end

    # The warm-up the settings ask for; a stop meanwhile cancels it, and is returned.
    def warm_up(server)
      requests = @config[:warmup]
      requests = recent_requests if requests == :recent
      requests = Warmup::DEFAULT if requests.nil? && @inheritance.successor?
      return nil unless requests

      plan = Warmup.plan(requests, connections: @config.threads.last, host: Warmup.host(server.urls),
                                   seconds: @config[:warmup_time], count: @config[:warmup_requests])
      future = server.warm_up(plan)
      relay = Thread.new { @orders.request(:warmed, "warm-up", future.get) }
      relay.name = "nettyrack-warmup"
      until (order = @orders.next).kind == :warmed
        next @reload.queue(order, "while warming up") if order.kind == :reload
        next @restarts.queue(order, "while warming up", "follows once this process serves") unless order.kind == :stop

        server.cancel_warm_up
        return order
      end
      @warmed = order.detail.summary
      nil
    end

    # --warmup recent: the GET requests the old process handed over, said in one line; nil on a plain start.
    def recent_requests
      requests = Warmup.recent(@restart.fetch(:env))
      return requests if requests.nil? || @config.quiet?

      if requests.equal?(Warmup::DEFAULT)
        say("nettyrack: no recent GET requests handed over: warming up on GET /")
      else
        say("nettyrack: warming up on the #{requests.size} GET requests last answered before the restart " \
            "(#{requests.map(&:target).uniq.size} targets)")
      end
      requests
    end

    # Serves, says so, and takes orders until one stops the server; returns that order.
    def serving(server)
      @inheritance.restore_priority(@config[:worker_nice], @err)
      server.serve
      write_files(server)
      @systemd.ready("serving on #{server.urls.join(', ')}")
      boot_lines(server)
      @inheritance.served(@err)
      @hooks.run(:booted)
      @watch = TmpRestart.new(@orders, err: @err).start if @config[:tmp_restart]
      @restarts.resume
      @reload.resume
      loop do
        order = @reload.take(@orders.next)
        done = order && @restarts.take(order)
        return done if done
      end
    end

    def restarts(server)
      restart = HotRestart.new(server, @orders, command: @restart.fetch(:command), env: @restart.fetch(:env),
                                                directory: @restart.fetch(:directory), timeout: @config[:restart_timeout],
                                                nice: @config[:restart_nice], recent: @config[:warmup] == :recent)
      Restarts.new(server, @orders, restart, hooks: @hooks, systemd: @systemd, say: method(:say), err: @err)
    end

    # Checked before the app loaded: a failure now means something changed since; serving goes on.
    def write_files(server)
      said { @pidfile&.write }
      said { @state_file&.write(**state(server)) }
    end

    def said
      yield
    rescue Error => e
      @err.puts(e.line)
    end

    def state(server)
      token = server.control_token
      { control_url: server.control_url, token: token && (token.value || :none), tag: @config[:tag] }
    end

    def boot_lines(server)
      BootLine.entries(server, quiet: @config.quiet?, tag: @config[:tag]).each do |line, event, fields|
        @log.say(line, event: event, **fields)
      end
      say("nettyrack: #{@warmed}") if @warmed && !@config.quiet?
      Signals.untrappable_lines.each { |line| @err.puts(line) }
      BootChecks.warnings(server.configuration.threads.last).each { |warning| @err.puts(warning) }
    end

    def finish(server, order)
      handed_over = order.kind == :served
      unless handed_over
        @log.say("nettyrack: shutting down (#{order.reason})", event: "stop", reason: order.reason) unless @config.quiet?
        @systemd.stopping
      end
      unfinished = !server.stop
      @pidfile&.remove
      @state_file&.remove
      warn_unfinished if unfinished
      @hooks.run(:worker_shutdown)
      @hooks.run(:stopped)
      0
    end

    def warn_unfinished
      @err.puts("nettyrack: requests still running after the shutdown timeout " \
                "(#{@config[:shutdown_timeout]} s) were cut off")
    end

    def say(line) = @log.say(line)
  end
end
