# frozen_string_literal: true

require_relative "configuration"
require_relative "pubsub_setting"
require_relative "settings"

module Nettyrack
  # rackup's options hash → what RackHandler starts: one Configuration, the pub/sub setting,
  # and whether to be quiet. rackup passes its own (:Host, :Port, :environment, :quiet) and each
  # -O NAME=VALUE, Symbol or String keys, values as given. The settings are the SETTINGS rows
  # Server.new takes as keywords that have an -O option (Host, Port and Threads being rackup's
  # own), read by Configuration.keyword_layer; the -O names and their help (rackup -s nettyrack
  # -h) are the rows' too.
  #
  #   rackup -O options → here (.configuration) → ServerSetup → Server → NettyServer (Java)
  module RackOptions
    # The rows rackup reaches: Server.new's keywords that have an -O option.
    ROWS = Settings::KEYWORDS.select(&:option).freeze
    HISTORY_ROWS = %i[push_history push_history_ttl push_history_channels].map { |name| Settings.fetch(name) }.freeze

    module_function

    # NAME=VALUE => what it does, for rackup's help.
    def help
      SETTINGS.each_with_object({}) do |row, help|
        help[row.option] = row.option_help if row.option
        row.also.each { |aka| help[aka.option] = aka.option_help if aka.option }
      end
    end

    # The settings: $RACK_ENV and $RAILS_MAX_THREADS (Configuration.env_layer), under rackup's
    # environment, under the -O options.
    def configuration(options, env = ENV)
      environment = options[:environment] ? { environment: Settings.fetch(:environment).read(options[:environment]) } : {}
      Configuration.merge(Configuration.env_layer(env), environment, Configuration.keyword_layer(**keywords(options)))
    end

    # Server.new's keywords among the options, values as given: each row's -O option, by the
    # row's name; an alias given as true (no_control_token) stands for its value.
    def keywords(options)
      ROWS.each_with_object({}) do |row, given|
        value = option(options, row.option_name)
        given[row.name] = value unless value.nil?
        row.also.select(&:option).each do |aka|
          flag = option(options, aka.option[/\A\w+/])
          given[row.name] = aka.value if flag && Coerce.boolean(flag)
        end
      end
    end

    def pubsub(options, env = ENV)
      PubSubSetting.setting(option(options, :pubsub), env)
    end

    # The push history's limits (Configuration#push_history) from -O push_history=N and the
    # rows beside it: they shape the engine, not the server, so they are not Server.new keywords.
    def history(options)
      history_from { |row| option(options, row.option_name) }
    end

    # The same from any source: the block gives a history row's raw value, or nil (HostedApp's
    # context params).
    def history_from
      given = HISTORY_ROWS.each_with_object({}) do |row, layer|
        value = yield(row)
        layer[row.name] = row.read(value) unless value.nil?
      end
      Configuration.merge(given).push_history
    end

    # -O log_format=json: how the handler writes its own lines (ServerLog); like quiet, not the server's.
    def log_format(options)
      value = option(options, :log_format)
      row = Settings.fetch(:log_format)
      value.nil? ? row.default : row.read(value)
    end

    # rackup -q, -O Quiet, Capybara's Silent.
    def quiet?(options)
      options[:quiet] || options[:Quiet] || options[:Silent]
    end

    def option(options, name)
      options.fetch(name.to_sym) { options[name.to_s] }
    end
  end
end
