# frozen_string_literal: true

require "uri"
require_relative "errors"

module Nettyrack
  # One listener, as the CLI's --bind, the config file's bind/port and Server.new's binds: name
  # it. scheme is "tcp", "ssl" or "unix"; host and port for tcp and ssl, path for unix; params
  # the URI's query ("ssl://0.0.0.0:9443?cert=server.pem&key=server.key",
  # "unix:///run/app.sock?mode=0660"), String keys and values, each key known for its scheme.
  # JavaConfig hands it to org.nettyrack.core.config.Bind; the transport gives the params their meaning.
  #
  # Flow: CLI --bind / config file bind, port / Server.new binds → Coerce.bind → here → JavaConfig →
  #   org.nettyrack.core.config.Bind (Java).
  Bind = Struct.new(:scheme, :host, :port, :path, :params) do
    def self.tcp(host, port) = new("tcp", host.to_s, port, nil, {}.freeze)

    def tcp? = scheme == "tcp"

    def to_s
      query = params.empty? ? "" : "?#{URI.encode_www_form(params)}"
      return "unix://#{path}#{query}" if scheme == "unix"

      "#{scheme}://#{host.include?(':') ? "[#{host}]" : host}:#{port}#{query}"
    end
  end

  class Bind
    TCP = /\A(?:\[(?<host>[^\]]+)\]|(?<host>[^:\[\]\/]+)):(?<port>\d+)\z/
    PARAMS = {
      "tcp" => [].freeze,
      "ssl" => %w[cert key keystore keystore-pass verify_mode ca alpn].freeze,
      "unix" => %w[mode backlog].freeze
    }.freeze

    # A listen address URI: tcp://HOST:PORT (IPv6 as tcp://[::1]:9292), ssl://HOST:PORT?...,
    # unix:///absolute/path or unix://relative/path, with ?key=value params the scheme knows.
    # port: the Integer reader for ports (Coerce.port). Raises ConfigError saying what fits.
    def self.parse(value, &port)
      scheme, rest = value.to_s.split("://", 2)
      raise ConfigError, "#{value.inspect} is not a bind address (use #{usage})" unless rest && PARAMS.key?(scheme)

      address, query = rest.split("?", 2)
      params = query_params(value, scheme, query)
      return unix(value, address, params) if scheme == "unix"

      match = TCP.match(address)
      raise ConfigError, "#{value.inspect} is not a bind address (use #{usage})" unless match

      new(scheme, match[:host], port.call(match[:port]), nil, params)
    end

    UNIX_PARAMS = {
      "mode" => [/\A0?[0-7]{3}\z/, "octal permissions such as 0660"],
      "backlog" => [/\A[1-9]\d{0,4}\z/, "a count of 1..65535"]
    }.freeze

    def self.unix(value, path, params)
      raise ConfigError, "#{value.inspect} names no socket path (use unix:///path/to/app.sock)" if path.empty?

      params.each do |key, text|
        pattern, what = UNIX_PARAMS.fetch(key)
        next if pattern.match?(text) && (key != "backlog" || text.to_i <= 65_535)

        raise ConfigError, "#{value}: #{key} must be #{what}, got #{text.inspect}"
      end

      new("unix", nil, nil, path, params)
    end

    def self.query_params(value, scheme, query)
      return {}.freeze if query.nil? || query.empty?

      pairs = URI.decode_www_form(query)
      pairs.each do |key, _|
        next if PARAMS.fetch(scheme).include?(key)

        known = PARAMS.fetch(scheme)
        raise ConfigError, "#{value}: #{scheme}:// binds take no #{key.inspect} " \
                           "(#{known.empty? ? 'no parameters' : "known: #{known.join(', ')}"})"
      end
      duplicate = pairs.map(&:first).tally.find { |_, count| count > 1 }
      raise ConfigError, "#{value}: #{duplicate.first.inspect} is given twice" if duplicate

      pairs.to_h.freeze
    rescue ArgumentError => e
      raise ConfigError, "#{value}: #{e.message}"
    end

    def self.usage = "tcp://HOST:PORT, ssl://HOST:PORT?cert=FILE&key=FILE or unix:///PATH"

    private_class_method :unix, :query_params
  end
end
