# frozen_string_literal: true

require_relative "bind"
require_relative "errors"

module Nettyrack
  # Reads the values people write (command-line flags, config file calls, $PORT, rackup's -O
  # options, Server.new keywords) into the plain values Configuration holds: Integer bytes,
  # Integer counts, Numeric seconds, [min, max] threads, Bind listeners. Strings and Ruby
  # values are both accepted. A value that does not fit raises ConfigError saying what would;
  # the caller puts the flag, variable or file:line in front.
  #
  # Flow: CLI / config file / $PORT / rackup -O / Server.new → Setting#read → here → a settings
  #   layer → Configuration.
  module Coerce
    module_function

    SIZE = /\A(\d+)\s*(?:([kmg])(?:i?b)?|b)?\z/i
    SIZE_UNITS = { nil => 1, "k" => 1024, "m" => 1024**2, "g" => 1024**3 }.freeze
    SECONDS = /\A(\d+(?:\.\d+)?)\s*(ms|s|m)?\z/
    SECOND_UNITS = { "ms" => 0.001, nil => 1, "s" => 1, "m" => 60 }.freeze
    INTEGER = /\A\d+\z/

    # Bytes: 1048576, "1048576", "64k", "10m", "1g", "512KiB" (k, m and g are powers of 1024).
    def size(value)
      return value if value.is_a?(Integer) && value >= 0

      match = SIZE.match(value.to_s.strip)
      raise ConfigError, "#{value.inspect} is not a size (use bytes, or 64k, 10m, 1g)" unless match

      Integer(match[1], 10) * SIZE_UNITS.fetch(match[2]&.downcase)
    end

    # Seconds: 30, 1.5, "30", "1.5", "500ms", "30s", "2m".
    def seconds(value)
      return value if value.is_a?(Numeric) && !value.negative?

      match = SECONDS.match(value.to_s.strip)
      raise ConfigError, "#{value.inspect} is not a duration (use seconds, or 500ms, 30s, 2m)" unless match

      amount = match[1].include?(".") ? Float(match[1]) : Integer(match[1], 10)
      amount * SECOND_UNITS.fetch(match[2])
    end

    # A whole number, 0 or more.
    def count(value)
      return value if value.is_a?(Integer) && value >= 0

      text = value.to_s.strip
      raise ConfigError, "#{value.inspect} is not a whole number (0 or more)" unless INTEGER.match?(text)

      Integer(text, 10)
    end

    # A TCP port, 0..65535; 0 asks the OS for a free one.
    def port(value)
      number = INTEGER.match?(value.to_s.strip) ? Integer(value.to_s.strip, 10) : -1
      raise ConfigError, "#{value.inspect} is not a port (0..65535)" unless number.between?(0, 65_535)

      number
    end

    # Threads, from "MIN:MAX", "MAX", 16, [4, 16] or [nil, 16]. Returns [min, max]; min is nil
    # when only the maximum was given (Configuration then keeps its minimum, capped at max).
    def threads(value)
      parts = value.is_a?(Array) ? value : value.to_s.strip.split(":", -1)
      unless parts.size.between?(1, 2) && parts.all? { |part| part.nil? || INTEGER.match?(part.to_s) }
        raise ConfigError, "#{value.inspect} is not a thread count (use MIN:MAX or MAX)"
      end

      min, max = parts.size == 1 ? [nil, parts.first] : parts
      threads_pair(min, max)
    end

    def threads_pair(min, max)
      min = count(min) unless min.nil?
      max = count(max)
      raise ConfigError, "#{max} is not a thread count (at least 1 is needed)" if max.zero?
      raise ConfigError, "the minimum threads (#{min}) exceed the maximum (#{max})" if min && min > max

      [min, max]
    end

    # A listen address: a URI (see Bind.parse), [host, port], or a Bind already read. Returns a Bind.
    def bind(value)
      case value
      when Bind then value
      when Array then Bind.tcp(value[0], port(value[1]))
      else Bind.parse(value) { |text| port(text) }
      end
    end

    # An access log line format: "common" (Rack::CommonLogger's) or "json"; symbols too.
    def access_log_format(value) = one_of(value, value, %w[common json], "an access log format")

    # The --otel mode: "auto" (a span per request when OpenTelemetry is on the class path) or
    # "off"; symbols and false too.
    def otel(value) = one_of(value, value == false ? "off" : value, %w[auto off], "an otel mode")

    # How the server writes its own lines (ServerLog): "text" or "json"; symbols too.
    def log_format(value) = one_of(value, value, %w[text json], "a log format")

    # text (value, or what it stands for), trimmed and lower-cased, when it is one of choices;
    # else a ConfigError naming value as not +what+.
    def one_of(value, text, choices, what)
      word = text.to_s.strip.downcase
      return word if choices.include?(word)

      raise ConfigError, "#{value.inspect} is not #{what} (use #{choices.join(' or ')})"
    end

    # A file's path (a String or a Pathname), not empty.
    def path(value)
      text = value.to_s
      raise ConfigError, "#{value.inspect} is not a file path" if text.strip.empty?

      text
    end

    # true or false, also from "true"/"false"/"yes"/"no"/"1"/"0" (rackup's -O values are strings).
    def boolean(value)
      case value.to_s.downcase
      when "true", "yes", "1", "on" then true
      when "false", "no", "0", "off", "" then false
      else raise ConfigError, "#{value.inspect} is not true or false"
      end
    end
  end
end
