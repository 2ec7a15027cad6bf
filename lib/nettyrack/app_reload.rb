# frozen_string_literal: true

require_relative "errors"
require_relative "reload_check"
require_relative "restarts_asked"

module Nettyrack
  # Reloads of the application inside this JVM, as the orders ask for them (`nettyrack ctl
  # reload-app`, POST /reload-app, and SIGUSR2 / SIGUSR1 / tmp/restart.txt with
  # `restart_with :reload`), one at a time, each on a thread of its own:
  #
  #   ReloadCheck: nothing changed that needs a hot restart    (else refused, or a hot restart)
  #   → the new code boots in a new runtime (AppRuntime)        "booting"
  #   → a canary: a growing share of new requests goes to it    "canary"
  #     (Rollout); too many 5xx and it is rolled back
  #   → it serves every new request; the old version finishes   "draining"
  #     its requests, its push clients get on_shutdown and 1001,
  #     and its runtime ends (the booted one stays: it runs the server)
  #   → :reloaded: a reload asked for meanwhile starts now      "done", "rolled back", "failed"
  #
  # Every step says one line; the control endpoint's /stats says where a reload is
  # (Lifecycle#reload), which `ctl reload-app` waits on.
  #
  # Flow: Orders → Lifetime (serving) → #take → here → AppRuntime (Java), AppSwitch / Rollout (core).
  class AppReload
    # A canary judges the new code once it has answered this many requests; until the new code
    # has taken over it runs at most a quarter of the worker threads' requests at once.
    MIN_ANSWERS = 20

    def initialize(server, orders, config, check:, restarts:, say:, err:)
      @server = server
      @orders = orders
      @config = config
      @check = check
      @restarts = restarts
      @say = say
      @err = err
      @asked = RestartsAsked.new
      @under_way = false
      @serving = nil # the AppRuntime serving; nil while the booted app does
    end

    # Acts on +order+ when it is a reload's: returns nil then, else the order (for Restarts).
    def take(order)
      case order.kind
      when :reload then asked(order, fallback: false)
      when :restart then return order unless @config[:restart_with] == :reload

                         asked(order, fallback: true)
      when :reloaded then resume
      else return order
      end
    end

    # From #start until the reload's thread has said it ended (:reloaded comes after that).
    def under_way? = @under_way


    # A reload asked for before the server serves: it starts once it does (#resume).
    def queue(order, meanwhile)
      @asked.add(order.reason)
      status("queued: #{order.reason} #{meanwhile}", true)
      @say.call("nettyrack: #{order.reason} #{meanwhile}: the reload follows once this process serves")
    end

    # The reloads asked for meanwhile, as one.
    def resume
      @orders.request(:reload, @asked.take) if @asked.any?
      nil
    end

    # The server stopped: the reloaded runtime serving ends too (its at_exit blocks run).
    def finish
      @thread&.join(@config[:shutdown_timeout])
      @serving&.retire(0)
    end

    private

    # Starts a reload, queues it behind the one under way, or refuses it; nil, or, for a
    # restart order (+fallback+) that the reload cannot take, the order, for a hot restart.
    def asked(order, fallback:)
      if under_way?
        @asked.add(order.reason)
        @say.call("nettyrack: #{order.reason} during a reload: one more reload follows once it ends")
        return nil
      end
      refusal = refusal_for(order)
      return start(order) unless refusal
      return order_hot_restart(order, refusal) if fallback

      status("refused: #{refusal}", false)
      @err.puts("nettyrack: reload refused (#{order.reason}): #{refusal}")
      nil
    end

    def refusal_for(order)
      return "a hot restart to pid #{@restarts.pid} is under way; it loads the new code" if @restarts.in_progress?

      changes = @check.changes
      return nil if changes.empty?

      "#{changes.join('; ')} since boot, which needs a hot restart (nettyrack ctl restart)"
    end

    def order_hot_restart(order, refusal)
      @say.call("nettyrack: #{order.reason}: no reload: #{refusal.sub(/, which needs a hot restart.*/, '')}: a hot restart instead")
      order
    end

    def start(order)
      status("booting (#{order.reason})", true)
      @say.call("nettyrack: reload (#{order.reason}): booting the new code in a new runtime; the current code serves meanwhile")
      @under_way = true
      @thread = Thread.new { run(Process.clock_gettime(Process::CLOCK_MONOTONIC)) }
      @thread.name = "nettyrack-reload"
      nil
    end

    def run(started)
      lower_priority
      runtime = boot
      canary_at = elapsed(started)
      status("canary: the new code booted in #{canary_at} s and takes over new requests within #{@config[:reload_canary]} s", true)
      rollout = @server.app_switch.begin(runtime.handler, canary)
      outcome = rollout.await
      outcome.switched ? switched(runtime, outcome, started, canary_at) : rolled_back(runtime, outcome)
    rescue Java::OrgNettyrackCoreHost::HostedApp::BootFailure => e
      ended("failed: #{e.message}", failed: true)
      @err.puts("nettyrack: reload failed: #{e.message}; the current code serves on")
    rescue StandardError, Java::JavaLang::Exception => e
      ended("failed: #{e.message}", failed: true)
      @err.puts("nettyrack: reload failed: #{e.message} (#{e.class}); the current code serves on")
    ensure
      @under_way = false
      @orders.request(:reloaded, "reload")
    end

    def boot
      spec = { "rackup" => File.expand_path(@config.rackup), "config_file" => @check.config_file,
               "bundler" => (defined?(::Bundler) && ENV["BUNDLE_GEMFILE"] ? "true" : "false") }
      load_paths = [File.expand_path("..", __dir__), *JRuby.runtime.instance_config.load_paths.to_a]
      Java::OrgNettyrackJruby::AppRuntime.boot(JRuby.runtime, Dir.pwd, ENV.to_h, load_paths, spec, @server.pubsub,
                                              @config.development?, ->(line) { @err.puts(line) })
    end

    # The boot of the new code (and what its thread starts) runs at the workers' nice value: one
    # more thread beside those serving, not ahead of them. (At --restart-nice above theirs, as a
    # hot restart's new process boots, the Rails example took 53 s to boot under load.)
    def lower_priority
      Java::OrgNettyrackCore::ThreadNice.new(@config[:worker_nice], Java::OrgNettyrackJruby::PosixPriority.new(JRuby.runtime),
                                             Java::OrgNettyrackCore::ErrorLog.stderr).apply
    end

    def canary
      Java::OrgNettyrackCoreReload::Canary.new((@config[:reload_canary] * 1000).round, @config[:reload_errors] / 100.0,
                                               MIN_ANSWERS, [@config.threads.last / 4, 1].max)
    end

    def switched(runtime, outcome, started, canary_at)
      status("draining: generation #{outcome.generation} serves every new request", true)
      retired, @serving = @serving, runtime
      drained = release(retired, outcome)
      ended("done: generation #{outcome.generation} serves (new code answering #{canary_at} s after the order, " \
            "all of it after #{elapsed(started)} s)", failed: false)
      @say.call("nettyrack: reload done: generation #{outcome.generation} serves every request; new code answering " \
                "#{canary_at} s after the order, all of it after #{elapsed(started)} s (#{outcome.tallies})#{drained}")
    end

    def rolled_back(runtime, outcome)
      status("rolled back: #{outcome.tallies}", true)
      release(runtime, outcome)
      ended("rolled back: #{outcome.tallies}", failed: true)
      @err.puts("nettyrack: reload rolled back: #{outcome.tallies}, more than #{@config[:reload_errors]} points " \
                "over the old code's 5xx; the current code serves on")
    end

    # The losing version: its requests finish, its push clients go, its runtime ends (the
    # booted app's runtime runs the server and stays). Returns what did not end in time, in words.
    def release(runtime, outcome)
      millis = (@config[:shutdown_timeout] * 1000).round
      idle = outcome.await_idle(millis)
      gone = runtime ? runtime.retire(millis) : @server.booted_app.send_push_clients_away(millis)
      @server.renew_workers if runtime
      late = []
      late << "requests still running after #{@config[:shutdown_timeout]} s" unless idle
      late << "push clients still open after #{@config[:shutdown_timeout]} s" unless gone
      late.empty? ? "" : "; the old code's #{late.join(' and ')} were cut off"
    end

    def status(words, under_way)
      @server.lifecycle.reload(words, under_way)
    end

    # The reload's last word, counted (GET /metrics: nettyrack_reloads_total) as done or failed.
    def ended(words, failed:)
      @server.lifecycle.reload_ended(words, failed)
    end

    def elapsed(started)
      (Process.clock_gettime(Process::CLOCK_MONOTONIC) - started).round(1)
    end
  end
end
