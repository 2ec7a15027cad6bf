# frozen_string_literal: true

require_relative "setting"
require_relative "settings/serving"
require_relative "settings/limits"
require_relative "settings/process"
require_relative "file_settings"
require_relative "restart_settings"

module Nettyrack
  # Every setting, once: the table the CLI's flags and --help, the config file's methods,
  # rackup's -O options and their help, and Configuration::DEFAULTS are made from.
  #
  #   CLI flags / config file (DSL) / rackup -O / Server.new keywords / servlet context params
  #     → SETTINGS rows read each value (Setting#read) → a settings layer
  #     → Configuration (DEFAULTS from these rows) → ServerSetup (JavaConfig → ServerConfig,
  #     Java) → Server
  #
  # To add a setting, add one row (a Setting) to the file of its group: settings/serving.rb
  # (listening, running, operations), settings/process.rb (the process's files and hooks),
  # file_settings.rb, restart_settings.rb or
  # settings/limits.rb (limits and tuning, the values ServerConfig.Builder takes one by one).
  # Its flag, config file method, -O option and help follow from the row; whether Server.new
  # takes it as a keyword and a servlet door applies it are columns of the row (Setting).
  SETTINGS = [*Settings::LISTENING, *Settings::RUNNING, *FileSettings::ROWS, *RestartSettings::ROWS,
              *Settings::OPERATIONS, *Settings::PROCESS,
              *Settings::LIMITS, *Settings::TUNING].freeze

  module Settings
    # The --help sections, in order, with their headings.
    GROUPS = {
      listening: "Listening:",
      running: "Running:",
      files: "Files:",
      restarts: "Restarts (SIGUSR2 or `nettyrack ctl restart`: a new process takes over, see docs/restart.md):",
      operations: "Operations (see `nettyrack ctl --help`):",
      process: "Process (spelled as Puma spells them; see docs/puma.md):",
      limits: "Limits and timeouts (sizes take k, m, g: 64k, 10m; durations are seconds, or 500ms, 2m):",
      tuning: "Tuning:"
    }.freeze

    BY_NAME = SETTINGS.to_h { |row| [row.name, row] }.freeze
    # The rows whose value goes to a ServerConfig.Builder method of its own.
    BUILDER = SETTINGS.select(&:builder).freeze
    BUILDER_NAMES = BUILDER.map(&:name).freeze
    # The rows Server.new (and rackup's handler) take as keywords: Configuration.keyword_layer.
    KEYWORDS = SETTINGS.select(&:keyword).freeze
    KEYWORD_NAMES = KEYWORDS.map(&:name).freeze
    # The rows a servlet door applies (HostedApp); a container's own settings cover the others.
    SERVLET = SETTINGS.select(&:servlet).freeze
    DEFAULTS = SETTINGS.to_h { |row| [row.name, row.default] }.freeze

    def self.fetch(name) = BY_NAME.fetch(name)
    def self.default(name) = DEFAULTS.fetch(name)
    def self.in_group(group) = SETTINGS.select { |row| row.group == group }
  end
end
