# frozen_string_literal: true

module Nettyrack
  # Hands a stop request from a signal trap (or from Rack's `shutdown`) to the thread that
  # waits in #wait, which then does the actual stopping. The trap only pushes onto a Queue:
  # the heavy work never runs inside it.
  #
  #   stop = StopSignal.new.trap("INT", "TERM")
  #   reason = stop.wait   # => "SIGTERM"
  #   server.stop
  #   stop.restore
  class StopSignal
    def initialize
      @requests = Queue.new
      @previous = {}
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

    # Blocks until a signal or #request arrives; returns its name ("SIGINT") or reason.
    def wait
      @requests.pop
    end

    # Puts back the handlers #trap replaced.
    def restore
      @previous.each { |name, handler| Signal.trap(name, handler || "DEFAULT") }
      @previous.clear
    end
  end
end
