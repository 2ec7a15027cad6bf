# frozen_string_literal: true

require "securerandom"
require_relative "coerce"
require_relative "errors"

module Nettyrack
  # The control endpoint's settings, as the CLI, the config file, rackup's -O and Server.new
  # take them, and the token a server runs with:
  #
  #   Control.url("tcp://127.0.0.1:9293")   # => ["127.0.0.1", 9293]
  #   Control.url("unix:///run/app/ctl.sock")  # => a unix Bind (mode and backlog allowed)
  #   Control.token_setting("s3cret")      # => "s3cret"; :none (or "none") opts out of tokens
  #   Control.token(nil)                   # => a Token with a random value, generated: true
  #
  # Like Puma's control app, a token is required unless explicitly opted out of; a server given
  # a control URL and no token makes one up and prints it at boot (see #boot_line).
  #
  # Flow: --control-url, control_url, -O control_url → here → Configuration → ServerSetup (which
  #   makes the Token, Server#control_token) → JavaConfig → the Java control endpoint.
  module Control
    Token = Struct.new(:value, :generated) do
      def generated? = generated
    end

    module_function

    # A control URL: tcp://HOST:PORT (IPv6 as tcp://[::1]:9293), returned as [host, port]; or
    # unix:///PATH, returned as its Bind.
    def url(value)
      scheme = value.to_s.split("://", 2).first
      if value.to_s.include?("://") && !%w[tcp unix].include?(scheme)
        raise ConfigError, "#{scheme}:// control URLs are not supported yet (#{value}); use tcp://HOST:PORT or unix:///PATH"
      end

      bind = Coerce.bind(value)
      bind.tcp? ? [bind.host, bind.port] : bind
    rescue ConfigError => e
      raise unless e.message.include?("is not a bind address")

      raise ConfigError, "#{value.inspect} is not a control URL (use tcp://HOST:PORT or unix:///PATH)"
    end

    # The token as configured: a non-empty String, or :none for the explicit opt-out.
    def token_setting(value)
      return :none if [:none, "none", false].include?(value)

      text = value.to_s
      raise ConfigError, "the control token must not be empty (to go without one, use --no-control-token)" if text.strip.empty?

      text
    end

    # The token a server with a control endpoint runs with: the configured one, none (value
    # nil) for :none, or a new random one (128 bits, hex) when nothing was configured.
    def token(setting)
      case setting
      when :none then Token.new(nil, false)
      when nil then Token.new(SecureRandom.hex(16), true)
      else Token.new(setting, false)
      end
    end

    # The boot output's second line; the token itself only when it was made up here:
    #   nettyrack: control endpoint on tcp://127.0.0.1:9293 (token 6f1c09...)
    def boot_line(url, token)
      detail = if token.value.nil? then "no token: anyone who can connect may stop the server"
               elsif token.generated? then "token #{token.value}"
               else "token as configured"
               end
      "nettyrack: control endpoint on #{url} (#{detail})"
    end
  end
end
