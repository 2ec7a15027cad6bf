# frozen_string_literal: true

require "jruby" # JRuby.runtime, for PosixPriority (the servlet door loads this file without lib/nettyrack.rb)
require_relative "bind"
require_relative "errors"
require_relative "settings"

module Nettyrack
  # The one place Ruby settings become an org.nettyrack.core.config.ServerConfig (Configuration → here
  # → Java): the keywords of Configuration#server_options (plus an access-log stream) go into
  # ServerConfig.builder, by the builder methods the Settings::BUILDER rows name. Java's build()
  # checks the ranges; its message, or a value too large for a Java int, comes back as a
  # ConfigError.
  module JavaConfig
    module_function

    # access_log, error_log: nil, a java.io.OutputStream, or a Ruby IO (written through
    # #to_outputstream). The error log gets the server's own trouble; nil means stderr.
    # control_url: [host, port], a unix Bind, or nil; control_token: the token, or nil/:none for none (Server
    # makes one up first when none was configured).
    def build(binds:, threads:, proxy_protocol: false, http2: true, access_log: nil, error_log: nil, access_log_format: "common",
              control_url: nil, control_token: nil, **limits)
      files = FileSettings::DEFAULTS.merge(limits.slice(*FileSettings::NAMES))
      limits = limits.except(*FileSettings::NAMES)
      builder = Java::OrgNettyrackCoreConfig::ServerConfig.builder
      binds.each { |bind| builder.bind(java_bind(bind)) }
      builder.threads(*threads)
      builder.proxyProtocol(proxy_protocol)
      builder.http2(http2)
      FileSettings.fill(builder, files)
      Settings::BUILDER.each { |row| fill(builder, row, limits.fetch(row.name)) }
      control(builder, control_url, control_token.is_a?(String) ? control_token : nil) if control_url
      builder.accessLogFormat(access_log_format.to_s)
      builder.accessLog(output_stream(access_log))
      builder.errorLog(output_stream(error_log))
      builder.setPriority(Java::OrgNettyrackJruby::PosixPriority.new(JRuby.runtime))
      builder.build
    rescue Java::JavaLang::IllegalArgumentException => e
      raise ConfigError, e.message
    end

    def java_bind(bind)
      Java::OrgNettyrackCoreConfig::Bind.new(bind.scheme, bind.host, bind.port || 0, bind.path,
                                              java.util.HashMap.new(bind.params))
    end

    def control(builder, url, token)
      url.is_a?(Bind) ? builder.control(java_bind(url), token) : builder.control(*url, token)
    end

    def fill(builder, row, value)
      builder.public_send(row.builder, row.to_java(value))
    rescue RangeError
      raise ConfigError, "#{row.flag} #{value} is too large"
    end

    def output_stream(target)
      target.respond_to?(:to_outputstream) ? target.to_outputstream : target
    end
  end
end
