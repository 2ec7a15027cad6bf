# frozen_string_literal: true

require_relative "errors"
require_relative "restarts_asked"

module Nettyrack
  # The hot restarts of one serving process, as its orders (Orders) ask for them, with the
  # lines, the control endpoint's status and systemd's word for each step:
  #
  #   :restart  the restart hooks run and a new process starts (HotRestart); while one is in
  #             progress, it is queued as one more (RestartsAsked)
  #   :failed   it will not serve: say why; a restart queued meanwhile starts now
  #   :served   it serves: hand the listeners over (this process then drains); a restart queued
  #             meanwhile goes to the new process as SIGUSR2 (it may have read the files before
  #             they changed)
  #   :stop     a new process still booting goes
  #
  #   restarts = Restarts.new(server, orders, hot_restart, hooks:, systemd:, say:, err:)
  #   restarts.queue(order, "while warming up", "follows once this process serves")  # before serving
  #   restarts.resume                              # serving: what was queued is asked for again
  #   until (done = restarts.take(orders.next)); end   # the :served or :stop that ends serving
  #
  # Flow: Orders → Lifetime (serving) → here → HotRestart.
  class Restarts
    # say: how a line goes to stdout (Lifetime's).
    def initialize(server, orders, hot_restart, hooks:, systemd:, say:, err:)
      @server = server
      @orders = orders
      @restart = hot_restart
      @hooks = hooks
      @systemd = systemd
      @say = say
      @err = err
      @asked = RestartsAsked.new
    end

    # Acts on +order+; returns it when it ends serving (:served, :stop), else nil.
    def take(order)
      case order.kind
      when :restart then asked(order)
      when :failed then failed(order)
      when :served then return served(order)
      when :stop
        @restart.abort if @restart.in_progress?
        return order
      end
      nil
    end

    def in_progress? = @restart.in_progress?

    # The new process of the hot restart in progress.
    def pid = @restart.pid

    # The restarts queued while none could start are asked for again, as one.
    def resume
      @orders.request(:restart, @asked.take) if @asked.any?
    end

    # A restart asked for (a signal, ctl, a touch) meanwhile: one more, in words on stdout.
    def queue(order, meanwhile, outcome)
      joins = @asked.any?
      @asked.add(order.reason)
      queued = joins ? "joins the hot restart already queued, which" : "one more hot restart"
      @say.call("nettyrack: #{order.reason} #{meanwhile}: #{queued} #{outcome}")
    end

    private

    def asked(order)
      return restarting(order) unless @restart.in_progress?

      queue(order, "during the hot restart to pid #{@restart.pid}", "follows once that one serves")
    end

    def restarting(order)
      @hooks.run(:restart)
      pid = @restart.start
      @server.lifecycle.restart_started("in progress (pid #{pid})")
      @systemd.reloading("hot restart: pid #{pid} booting")
      @say.call("nettyrack: hot restart (#{order.reason}): pid #{pid} is booting; pid #{Process.pid} serves meanwhile")
    rescue BootError => e
      @server.lifecycle.restart_failed("failed: #{e.message}")
      @err.puts("nettyrack: #{order.reason}: no hot restart: #{e.message}; pid #{Process.pid} still serving")
    end

    def failed(order)
      @restart.failed
      @server.lifecycle.restart_failed("failed: #{order.detail}")
      @err.puts("nettyrack: hot restart failed: #{order.detail}; pid #{Process.pid} still serving")
      @systemd.ready("serving (hot restart failed)")
      resume
    end

    def served(order)
      @restart.served
      @server.lifecycle.restart("handed over to pid #{order.detail}")
      @server.hand_over
      @say.call("nettyrack: pid #{order.detail} serves now; pid #{Process.pid} drains")
      pass_on(order.detail) if @asked.any?
      order
    end

    # The new process serves code read before the restarts queued meanwhile were asked for: it restarts in turn.
    def pass_on(pid)
      reasons = @asked.take
      Process.kill("USR2", pid)
      @say.call("nettyrack: the hot restart asked for meanwhile (#{reasons}) passes to pid #{pid} (SIGUSR2)")
    rescue SystemCallError => e
      @err.puts("nettyrack: the hot restart asked for meanwhile (#{reasons}) could not pass to pid #{pid}: " \
                "#{Nettyrack.describe_system_error(e)}")
    end
  end
end
