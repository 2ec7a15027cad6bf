# frozen_string_literal: true

require "stringio"
require_relative "client_process"

# Real third-party clients for the push specs: Python scripts under spec/support (clients/*.py,
# autobahn/*.py) run in the venv that script/bootstrap makes (.toolchain/python, pinned in
# script/lib/python.sh). A script reads its instructions as JSON on stdin and prints one JSON
# report on stdout (ClientProcess runs it, bounded by +timeout+):
#
#   PythonClients.run("clients/ws_client.py", url: "ws://127.0.0.1:#{port}/", steps: [...])
#   # => {"handshake" => {"status" => 101, ...}, "received" => [...], "close" => {...}}
module PythonClients
  PYTHON = File.expand_path("../../.toolchain/python/bin/python", __dir__)

  module_function

  # The parsed JSON report of spec/support/+script+ given +input+ (a Hash) on stdin.
  def run(script, input = {}, timeout: 30, args: [])
    raise "no Python venv at #{PYTHON}: run script/bootstrap" unless File.executable?(PYTHON)

    ClientProcess.run([PYTHON, File.join(__dir__, script), *args], input, timeout: timeout)
  end
end

# For the push specs: a Nettyrack::Server on 127.0.0.1 and port 0 around an app, and a handler
# that records its callbacks.
module PushServerHelpers
  # Yields the port of a server running +app+ and the StringIO it logs errors to; stops it after.
  def with_push_server(app, threads: [2, 4], **limits)
    errors = StringIO.new
    server = Nettyrack::Server.new(app, host: "127.0.0.1", port: 0, threads: threads, errors: errors, **limits)
    server.start
    yield server.port, errors
  ensure
    server&.stop
  end

  # A rack.upgrade handler that records each callback as [name, *arguments] and, optionally,
  # echoes every message back; +on_open+, when given, runs after on_open is recorded.
  # The list is read through #events, #names and #wait_for (bounded).
  class Recorder
    def initialize(echo: false, &on_open)
      @echo = echo
      @on_open = on_open
      @events = []
      @lock = Mutex.new
      @changed = ConditionVariable.new
    end

    def on_open(client)
      record(:on_open, client.protocol)
      @on_open&.call(client)
    end

    def on_message(client, data)
      record(:on_message, data)
      client.write(data) if @echo
    end

    def on_close(_client)
      record(:on_close)
    end

    def events
      @lock.synchronize { @events.dup }
    end

    def names
      events.map(&:first)
    end

    # Waits (up to +timeout+ seconds) until the block holds for the events so far, and returns
    # them, also at the deadline: the spec's expectations on them then say what is missing.
    def wait_for(timeout = 10)
      limit = Deadline.now + timeout
      @lock.synchronize do
        until yield(@events)
          left = limit - Deadline.now
          break if left <= 0

          @changed.wait(@lock, left)
        end
        @events.dup
      end
    end

    # Waits until on_close was called (or the deadline); returns the events.
    def wait_closed(timeout = 10)
      wait_for(timeout) { |events| events.any? { |name, _| name == :on_close } }
    end

    private

    def record(*event)
      @lock.synchronize do
        @events << event
        @changed.broadcast
      end
    end
  end
end

RSpec.configure { |config| config.include PushServerHelpers }
