# frozen_string_literal: true

require_relative "configuration"
require_relative "control"
require_relative "errors"
require_relative "java_config"

module Nettyrack
  # What one Server runs with besides its app, made once from one Configuration: the control
  # token (the configured one, none, or one made up: Control.token) and the
  # org.nettyrack.core.config.ServerConfig JavaConfig builds from both, with the server's access log
  # and error log. It reads no setting itself: the Configuration is taken as merged.
  #
  # Java checks every value as it builds, and #check_tls reads the ssl:// listeners' files, so
  # the launcher makes its setup before the app loads: a bad value or certificate fails first.
  # It then hands the setup down (Lifetime) to the Server, which uses the ServerConfig as built
  # but for the wait threads, fitted to the loaded app's database pools (JavaConfig.fit_to_pools).
  #
  #   setup = Nettyrack::ServerSetup.new(configuration, access_log: log, errors: $stderr).check_tls
  #   Nettyrack::Server.new(app, setup)
  #
  # Flow: Launcher (its merged Configuration), RackHandler (RackOptions.configuration),
  #   Server.new's keywords (.from_keywords) → here → Server → NettyServer (Java).
  class ServerSetup
    attr_reader :configuration, :control_token, :java_config, :errors

    # Server.new's keywords: access_log and errors as below, the rest settings
    # (Configuration.from_keywords).
    def self.from_keywords(access_log: nil, errors: $stderr, **settings)
      new(Configuration.from_keywords(**settings), access_log: access_log, errors: errors)
    end

    # access_log: nil, an IO (such as $stdout), or a java.io.OutputStream; errors: where the
    # server's own trouble and the app's errors go.
    def initialize(configuration, access_log: nil, errors: $stderr)
      @configuration = configuration
      @errors = errors
      @control_token = Control.token(configuration[:control_token]) if configuration.control_url
      @java_config = JavaConfig.build(configuration, access_log: access_log, error_log: errors,
                                                     control_token: @control_token&.value)
    end

    # Reads the certificate files of every ssl:// listener; raises ConfigError naming the
    # listener whose files do not make a TLS setup. Returns self.
    def check_tls
      Java::OrgNettyrackNetty::NettyServer.check_tls(@java_config)
      self
    rescue Java::OrgNettyrackNettyTls::TlsSetupException => e
      raise ConfigError, e.message
    end
  end
end
