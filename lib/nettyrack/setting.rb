# frozen_string_literal: true

require_relative "bind"
require_relative "coerce"

module Nettyrack
  # One row of SETTINGS (settings.rb): a setting's name, default, how its values are read, and
  # how each door spells it. CLI (flags and --help), DSL (config file methods), RackHandler
  # (rackup -O options and their help), Configuration::DEFAULTS and JavaConfig (the
  # ServerConfig.Builder method a value goes to) are all made from these rows.
  #
  #   name     the key in a settings layer (and the DSL method, when dsl is true)
  #   default  its value when no layer gives one
  #   type     how a value is read: a Coerce method (:size, :count, :seconds, :boolean,
  #            :port, :threads, :bind, :access_log_format, :log_format), :text, or a Proc (value[, env])
  #   group    the --help section (Settings::GROUPS)
  #   flags    OptionParser switches, ["-p", "--port PORT"]; nil: no flag
  #   help     --help lines; %{default} (or %{other_name}) shows a default
  #   bare     the value of a DSL call, or an --access-log style flag, given no argument
  #   into     how a value joins a layer: :set, :list (appended; a keyword gives the whole list),
  #            :binds (a port: one more listener on the default host)
  #   dsl      true: a generated DSL method; a Symbol: the method written by hand (dsl.rb,
  #            puma_dsl.rb) that sets it; false: none
  #   option   rackup's -O spelling ("max_body_size=BYTES"); option_help when not the help
  #   builder  the ServerConfig.Builder method that takes the value on its own (the BUILDER rows)
  #   also     more spellings with a fixed value (--no-warmup, no_control_token): Alias rows
  #   puma     Puma's config file spelling of the same setting (persistent_timeout for
  #            keep_alive_timeout): a DSL method taking the same values (PumaDSL)
  #   keyword  true: Server.new takes it as a keyword of its name (so does rackup's handler,
  #            from the -O option); Configuration.keyword_layer reads it
  #   servlet  true: a servlet door applies it, from the context param named as its flag
  #            (max-body-size); the container's own settings cover the others (HostedApp)
  class Setting
    Alias = Struct.new(:flag, :dsl, :option, :help, :option_help, :value, keyword_init: true)

    METAVARS = { size: "BYTES", count: "N", seconds: "SECONDS" }.freeze

    attr_reader :name, :default, :type, :group, :flags, :help, :bare, :into, :dsl, :option, :builder, :also, :puma,
                :keyword, :servlet

    def initialize(name, default, type, group:, flags: nil, help: [], bare: nil, into: :set, dsl: true, option: nil,
                   option_help: nil, builder: nil, also: [], puma: nil, keyword: false, servlet: false)
      @name, @default, @type, @group, @flags, @help = name, default, type, group, flags, Array(help)
      @bare, @into, @dsl, @option, @option_help, @builder, @also = bare, into, dsl, option, option_help, builder, also
      @puma, @keyword, @servlet = puma, keyword, servlet
      freeze
    end

    # A limit or tuning value: flag --NAME METAVAR, DSL method, -O option and Server.new keyword
    # NAME, a builder method, and its default shown at the end of its help.
    def self.builder_row(name, type, default, builder, help, group:, puma: nil, servlet: false)
      new(name, default, type, group: group, flags: ["--#{name.to_s.tr('_', '-')} #{METAVARS.fetch(type)}"],
                               help: "#{help} (default %{default})", option: "#{name}=#{METAVARS.fetch(type)}",
                               builder: builder, puma: puma, keyword: true, servlet: servlet)
    end

    # The flag errors name: "--port" for ["-p", "--port PORT"], "--sendfile" for "--[no-]sendfile".
    def flag
      long = flags&.find { |switch| switch.start_with?("--") }
      long && long[/\A--(?:\[no-\])?([\w-]+)/, 1].then { |word| "--#{word}" }
    end

    def metavar = METAVARS.fetch(type)

    # The value read from a flag, a DSL argument, an -O option or a keyword; raises ConfigError.
    # env: where a setting that looks at the environment looks (--pubsub redis: $REDIS_URL).
    def read(value, env = ENV)
      case type
      when :text then value.to_s
      when Symbol then Coerce.public_send(type, value)
      else type.arity == 1 ? type.call(value) : type.call(value, env)
      end
    end

    # Lays a read value into a settings layer (a Hash).
    def lay(layer, value)
      case into
      when :binds then (layer[:binds] ||= []) << (value.is_a?(Bind) ? value : Bind.tcp(Settings.default(:host), value))
      when :list then layer[name] = [*layer[name], value]
      else layer[name] = value
      end
      layer
    end

    # What Java takes: seconds as whole milliseconds, the rest as they are.
    def to_java(value)
      type == :seconds ? (value * 1000).round : value
    end

    # The help lines with their %{...} defaults filled in.
    def help_lines = help.map { |line| fill(line) }

    # The -O option's name: "max_body_size" for "max_body_size=BYTES".
    def option_name = option && option[/\A\w+/]

    # -O's help: option_help, else the help on one line.
    def option_help = fill(@option_help || help.join(" "))

    # How --help shows the default: 100m, 16k, 30s.
    def shown_default
      return "#{default}s" if type == :seconds
      return default.to_s unless type == :size && default.positive?
      return "#{default / Settings::MIB}m" if (default % Settings::MIB).zero?
      return "#{default / Settings::KIB}k" if (default % Settings::KIB).zero?

      default.to_s
    end

    private

    def fill(line)
      line.gsub(/%\{(\w+)\}/) { (Regexp.last_match(1) == "default" ? self : Settings.fetch(Regexp.last_match(1).to_sym)).shown_default }
    end
  end
end
