# frozen_string_literal: true

require "jruby" # JRuby.runtime, for PosixPriority (the servlet door loads this file without lib/nettyrack.rb)
require_relative "bind"
require_relative "errors"
require_relative "pool_check"
require_relative "settings"

module Nettyrack
  # The one place Ruby settings become an org.nettyrack.core.config.ServerConfig: a Configuration's
  # listeners, threads, flags, file settings and the limits the Settings::BUILDER rows name go
  # into ServerConfig.builder, with the streams and token that are no settings. Java's build()
  # checks the ranges; its message, or a value too large for a Java int, comes back as a
  # ConfigError. .fit_to_pools then fits the one value that waits for the app to load.
  #
  # Flow: Configuration → here (.build: ServerSetup, HostedApp) → ServerConfig (Java) →
  #   .fit_to_pools once the app has loaded (Server, HostedApp) → NettyServer or the servlet door.
  module JavaConfig
    module_function

    # access_log, error_log: nil, a java.io.OutputStream, or a Ruby IO (written through
    # #to_outputstream). The error log gets the server's own trouble; nil means stderr.
    # control_token: the token control requests need when there is a control_url, nil for none
    # (Control.token makes one up first when none was configured).
    def build(configuration, access_log: nil, error_log: nil, control_token: nil)
      builder = Java::OrgNettyrackCoreConfig::ServerConfig.builder
      configuration.binds.each { |bind| builder.bind(java_bind(bind)) }
      builder.threads(*configuration.threads)
      builder.proxyProtocol(configuration.proxy_protocol?)
      builder.http2(configuration.http2?)
      FileSettings.fill(builder, configuration)
      Settings::BUILDER.each { |row| fill(builder, row, configuration[row.name]) }
      control(builder, configuration.control_url, control_token) if configuration.control_url
      metrics(builder, configuration.metrics_url) if configuration.metrics_url
      builder.accessLogFormat(configuration[:access_log_format].to_s)
      builder.otel(configuration[:otel])
      builder.accessLog(output_stream(access_log))
      builder.errorLog(output_stream(error_log))
      builder.setPriority(Java::OrgNettyrackJruby::PosixPriority.new(JRuby.runtime))
      builder.build
    rescue Java::JavaLang::IllegalArgumentException => e
      raise ConfigError, e.message
    end

    # The ServerConfig with its wait threads fitted to the loaded app's database pools
    # (PoolCheck.wait_threads): its workers record replaced, every other record as built; the
    # same ServerConfig when the pools ask for no change.
    def fit_to_pools(config)
      config.withWaitThreads(PoolCheck.wait_threads(config.workers.waitThreads, config.workers.maxThreads))
    end

    def java_bind(bind)
      Java::OrgNettyrackCoreConfig::Bind.new(bind.scheme, bind.host, bind.port || 0, bind.path,
                                              java.util.HashMap.new(bind.params))
    end

    def control(builder, url, token)
      url.is_a?(Bind) ? builder.control(java_bind(url), token) : builder.control(*url, token)
    end

    def metrics(builder, url)
      url.is_a?(Bind) ? builder.metrics(java_bind(url)) : builder.metrics(*url)
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
