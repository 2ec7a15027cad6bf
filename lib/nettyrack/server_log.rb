# frozen_string_literal: true

require "json"
require "time"
require_relative "say"

module Nettyrack
  # The server's own lines on stdout (listening, shutting down, warm-ups, restarts), each
  # flushed at once (Say): as text, or with --log-format json as one JSON object a line, for a
  # log pipeline that parses every line:
  #
  #   {"time":"2026-11-21T10:00:00.123Z","level":"info","event":"boot","message":"nettyrack 0.1.0 (...) listening on http://0.0.0.0:9292",
  #    "urls":["http://0.0.0.0:9292"],"pid":4242}
  #
  # event names the line: boot (the listening line), control (where the control endpoint
  # listens), stop (shutting down), log (any other); the fields beside it are the line's facts.
  # Flow: Lifetime, RackHandler → here → stdout.
  class ServerLog
    # format: "text" or "json" (the log_format setting).
    def initialize(out, format = "text")
      @out = out
      @json = format.to_s == "json"
    end

    # Writes one line; answers 0, as Say does.
    def say(message, event: "log", **fields)
      return Say.line(@out, message) unless @json

      Say.line(@out, JSON.generate({ time: ServerLog.time, level: "info", event: event, message: message, **fields }))
    end

    # ISO 8601 with milliseconds and the local offset, Z at UTC (as the JSON access log writes it).
    def self.time(now = Time.now)
      (now.utc_offset.zero? ? now.utc : now).iso8601(3)
    end
  end
end
