# frozen_string_literal: true

require "json"
require_relative "control_client"

module Nettyrack
  # After `nettyrack ctl reload-app`: asks the control endpoint's GET /stats every half second
  # until the reload it asked for has ended (its status no longer under way), at most
  # +timeout+ seconds, and returns how it ended: [true, "done: ..."] or [false, "rolled back:
  # ..." / "failed: ..." / "refused: ..."].
  #
  # Flow: nettyrack ctl reload-app (Ctl) → ControlClient POST /reload-app → here (GET /stats until it ends).
  class ReloadWait
    INTERVAL = 0.5
    UNDER_WAY = %w[requested queued booting canary draining].freeze

    def initialize(client, clock: -> { Process.clock_gettime(Process::CLOCK_MONOTONIC) }, pause: ->(s) { sleep(s) })
      @client = client
      @clock = clock
      @pause = pause
    end

    def until_ended(timeout)
      deadline = @clock.call + timeout
      loop do
        status = JSON.parse(@client.call(:get, "/stats")).dig("process", "reload").to_s
        return [status.start_with?("done"), status] unless UNDER_WAY.any? { |word| status.start_with?(word) }
        raise ControlClient::Failure, "the reload had not ended after #{timeout} s (#{status})" if @clock.call > deadline

        @pause.call(INTERVAL)
      end
    end
  end
end
