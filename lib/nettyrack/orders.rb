# frozen_string_literal: true

require_relative "signals"

module Nettyrack
  # The orders a running server takes, handed from where they arise to the one thread that
  # waits in #next and acts on them:
  #
  #   :stop      SIGINT, SIGTERM, Rack's `shutdown`, the control endpoint's POST /stop
  #   :restart   SIGUSR2 (and SIGUSR1, Puma's phased restart), POST /restart: a hot restart
  #   :served    the new process of a hot restart serves now (detail: its pid)
  #   :failed    the new process will not serve (detail: why, in words)
  #   :warmed    the warm-up ended (detail: its WarmupReport)
  #
  # Traps only push onto a Queue (Signals takes over a signal the process inherited ignored);
  # a thread of ours relays the control endpoint's Java Orders, so no Netty thread runs Ruby.
  #
  #   orders = Orders.new.trap("INT" => :stop, "TERM" => :stop, "USR2" => :restart)
  #   orders.relay(server.orders)       # with a control endpoint
  #   order = orders.next               # => #<struct kind=:stop, reason="SIGTERM", detail=nil>
  #   orders.restore
  #
  # Flow: signals, Rack's shutdown, control POST /stop and /restart → here → Lifetime / RackHandler
  #   act on them.
  class Orders
    Order = Struct.new(:kind, :reason, :detail)

    # The signals a server takes as orders, as Puma's: INT and TERM stop it, USR2 and USR1
    # (Puma's phased restart) ask for a hot restart. (HUP is ReloadSignal's.)
    SIGNALS = { "INT" => :stop, "TERM" => :stop, "USR2" => :restart, "USR1" => :restart }.freeze

    def initialize
      @queue = java.util.concurrent.LinkedBlockingQueue.new # Ruby 3.1's Queue#pop takes no timeout
      @previous = {}
      @relays = []
    end

    # Traps each signal for its kind (keeping the handler it replaces for #restore); returns self.
    def trap(kinds)
      kinds.each do |name, kind|
        @previous[name] = Signals.trap(name) { request(kind, "SIG#{name}") }
      end
      self
    end

    def request(kind, reason, detail = nil)
      @queue.put(Order.new(kind, reason, detail))
    end

    # Passes on the orders of a Java org.nettyrack.core.ops.Orders until #restore.
    def relay(java_orders)
      thread = Thread.new do
        while (order = java_orders.await)
          request(order.kind.name.downcase.to_sym, order.reason)
        end
      end
      thread.name = "nettyrack-orders-relay"
      @relays << [java_orders, thread]
      self
    end

    # Blocks until an order arrives and returns it: a server waits here for as long as it runs.
    # With +timeout+ (seconds), nil once it passed.
    def next(timeout: nil)
      timeout ? @queue.poll((timeout * 1000).round, java.util.concurrent.TimeUnit::MILLISECONDS) : @queue.take
    end

    # Puts back the handlers #trap replaced, and ends the threads #relay started.
    def restore
      @previous.each { |name, handler| Signal.trap(name, handler || "DEFAULT") }
      @previous.clear
      @relays.each do |java_orders, thread|
        java_orders.close
        thread.join
      end
      @relays.clear
    end
  end
end
