# frozen_string_literal: true

require_relative "configuration"
require_relative "pubsub_setting"
require_relative "settings"

module Nettyrack
  # rackup's options hash → what RackHandler starts: Server.new's keywords, the pub/sub
  # setting, and whether to be quiet. rackup passes its own (:Host, :Port, :environment,
  # :quiet) and each -O NAME=VALUE, Symbol or String keys, values as given (ServerKeywords
  # reads them). The -O names and their help (rackup -s nettyrack -h) are the SETTINGS rows'.
  #
  #   rackup -O options → here → Server.new (ServerKeywords) → Configuration → JavaConfig → Java
  module RackOptions
    # The -O options Server.new takes as keywords of the same name (pubsub and control_token
    # are read below).
    KEYWORDS = (SETTINGS.select { |row| row.option_name == row.name.to_s }.map(&:name) - %i[pubsub control_token]).freeze

    module_function

    # NAME=VALUE => what it does, for rackup's help.
    def help
      SETTINGS.each_with_object({}) do |row, help|
        help[row.option] = row.option_help if row.option
        row.also.each { |aka| help[aka.option] = aka.option_help if aka.option }
      end
    end

    def keywords(options, env = ENV)
      threads = options[:Threads] || Configuration.env_layer(env)[:threads]
      environment = options[:environment] || env["RACK_ENV"] || Configuration::DEFAULTS[:environment]
      no_token = option(options, :no_control_token)
      {
        host: options[:Host] || Configuration::DEFAULTS[:host],
        port: options[:Port] || Configuration::DEFAULTS[:port],
        threads: threads,
        development: environment.to_s == "development",
        control_token: no_token && Coerce.boolean(no_token) ? :none : option(options, :control_token),
        **KEYWORDS.to_h { |name| [name, option(options, name)] }.compact
      }
    end

    def pubsub(options, env = ENV)
      PubSubSetting.setting(option(options, :pubsub), env)
    end

    # rackup -q, -O Quiet, Capybara's Silent.
    def quiet?(options)
      options[:quiet] || options[:Quiet] || options[:Silent]
    end

    def option(options, name)
      options.fetch(name) { options[name.to_s] }
    end
  end
end
