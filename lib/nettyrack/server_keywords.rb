# frozen_string_literal: true

require_relative "bind"
require_relative "coerce"
require_relative "configuration"
require_relative "control"
require_relative "settings"

module Nettyrack
  # Server.new's keywords → one settings layer for Configuration.merge (the top one: an
  # embedder's or the Rack handler's values over the defaults), each value read by Coerce so
  # that "10m" and "500ms" work. A keyword Server.new does not know is an ArgumentError.
  module ServerKeywords
    module_function

    def layer(host:, port:, binds:, threads:, proxy_protocol:, http2:, access_log_format:, control_url:, control_token:,
              **limits)
      files = FileSettings.layer(limits.slice(*FileSettings::NAMES))
      limits = limits.except(*FileSettings::NAMES)
      unknown = limits.keys - Settings::BUILDER_NAMES
      raise ArgumentError, "unknown keyword#{'s' if unknown.size > 1}: #{unknown.join(', ')}" if unknown.any?

      ops = operations_layer(access_log_format, control_url, control_token)
      base_layer(host, port, binds, threads, { proxy_protocol:, http2: }, limits).merge(ops, files)
    end

    # The listeners, threads, flags and limits as one layer; host/port add a listener to binds
    # (the default one when neither is given).
    def base_layer(host, port, binds, threads, flags, limits)
      listeners = Array(binds).map { |bind| listener(bind) }
      if host || port || listeners.empty?
        defaults = Configuration::DEFAULTS
        listeners << Bind.tcp(host || defaults[:host], Coerce.port(port || defaults[:port]))
      end
      layer = { binds: listeners }
      layer[:threads] = Coerce.threads(threads) if threads
      flags.each { |name, value| layer[name] = flag_setting(name, value) unless value.nil? }
      limits.each { |name, value| layer[name] = Settings.fetch(name).read(value) }
      layer
    end

    def listener(bind)
      case bind
      when String then Coerce.bind(bind)
      when Array then Bind.tcp(bind[0], Coerce.port(bind[1]))
      else bind
      end
    end

    def flag_setting(name, value)
      Coerce.boolean(value)
    rescue ConfigError => e
      raise ConfigError, "invalid #{name}: #{e.message}"
    end

    def operations_layer(access_log_format, control_url, control_token)
      layer = {}
      layer[:access_log_format] = Coerce.access_log_format(access_log_format) if access_log_format
      layer[:control_url] = control_url.is_a?(String) ? Control.url(control_url) : control_url if control_url
      layer[:control_token] = Control.token_setting(control_token) unless control_token.nil?
      layer
    end
  end
end
