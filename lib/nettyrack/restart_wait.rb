# frozen_string_literal: true

require "json"
require_relative "control_client"

module Nettyrack
  # After `nettyrack ctl restart`: asks the control endpoint's GET /stats every half second
  # until another process answers there, serving (the new one took the socket over), or the old
  # one says its hot restart failed; at most +timeout+ seconds. While the endpoint changes
  # hands a request may find nobody: that is waited through too.
  #
  # Flow: nettyrack ctl restart (Ctl) → ControlClient POST /restart → here (GET /stats until the new
  #   process serves).
  class RestartWait
    INTERVAL = 0.5

    def self.pid(client)
      JSON.parse(client.call(:get, "/stats")).dig("process", "pid")
    end

    def initialize(client, old_pid, clock: -> { Process.clock_gettime(Process::CLOCK_MONOTONIC) }, pause: ->(s) { sleep(s) })
      @client = client
      @old_pid = old_pid
      @clock = clock
      @pause = pause
    end

    # The new process's pid; ControlClient::Failure saying why when there is none in time.
    def until_replaced(timeout)
      deadline = @clock.call + timeout
      loop do
        process = look
        return process["pid"] if process && process["pid"] != @old_pid && process["phase"] == "serving"

        failed = process && process["pid"] == @old_pid && process["restart"].to_s.start_with?("failed")
        raise ControlClient::Failure, "the hot restart of pid #{@old_pid} #{process['restart']}" if failed
        raise ControlClient::Failure, "no new process served within #{timeout} s (pid #{@old_pid} still serves)" if @clock.call > deadline

        @pause.call(INTERVAL)
      end
    end

    private

    def look
      JSON.parse(@client.call(:get, "/stats"))["process"]
    rescue ControlClient::Failure, JSON::ParserError
      nil # changing hands, or a proxy's error page: ask again
    end
  end
end
