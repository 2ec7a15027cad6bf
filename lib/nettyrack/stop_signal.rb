# frozen_string_literal: true

module Nettyrack
  # Hands a stop request from a signal trap, from Rack's `shutdown`, or from the control
  # endpoint's POST /stop (#relay) to the thread that waits in #wait, which then does the actual
  # stopping. The trap only pushes onto a Queue: the heavy work never runs inside it.
  #
  #   stop = StopSignal.new.trap("INT", "TERM")
  #   stop.relay(server.stop_requests)   # with a control endpoint
  #   reason = stop.wait   # => "SIGTERM", or "control /stop"
  #   server.stop
  #   stop.restore
  class StopSignal
    def initialize
      @requests = Queue.new
      @previous = {}
      @relays = []
    end

    # Traps each signal (keeping the handler it replaces for #restore); returns self.
    def trap(*signals)
      signals.each do |name|
        @previous[name] = Signal.trap(name) { @requests.push("SIG#{name}") }
      end
      self
    end

    def request(reason)
      @requests.push(reason)
    end

    # Passes on the stop request of a Java org.nettyrack.core.ops.StopRequests. A thread of ours
    # waits on it, so the Netty thread that asks never runs Ruby; #restore releases that thread.
    def relay(stop_requests)
      thread = Thread.new do
        reason = stop_requests.await
        @requests.push(reason) if reason
      end
      thread.name = "nettyrack-stop-relay"
      @relays << [stop_requests, thread]
      self
    end

    # Blocks until a signal, #request or relayed request arrives; returns its name ("SIGINT") or reason.
    def wait
      @requests.pop
    end

    # Puts back the handlers #trap replaced, and ends the threads #relay started.
    def restore
      @previous.each { |name, handler| Signal.trap(name, handler || "DEFAULT") }
      @previous.clear
      @relays.each do |stop_requests, thread|
        stop_requests.close
        thread.join
      end
      @relays.clear
    end
  end
end
