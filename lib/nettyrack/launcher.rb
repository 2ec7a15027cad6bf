# frozen_string_literal: true

require_relative "app_loader"
require_relative "boot_line"
require_relative "cli"
require_relative "configuration"
require_relative "ctl"
require_relative "dsl"
require_relative "errors"
require_relative "pubsub"
require_relative "rails_check"
require_relative "reload_signal"
require_relative "orders"

module Nettyrack
  # `nettyrack [options] [config.ru]`, from ARGV to an exit status:
  #
  #   CLI + config file (DSL) + ENV → Configuration → chdir, RACK_ENV → jars → settings checked
  #   by Java → pub/sub engine (Nettyrack.pubsub) → config.ru (AppLoader) → Server#start → boot
  #   line(s) → SIGINT/SIGTERM or control POST /stop (Orders) → Server#stop → engine closed → 0
  #   (with ssl:// listeners, their files are checked before config.ru loads, and SIGHUP
  #   reloads them: ReloadSignal)
  #
  # Any Nettyrack::Error on the way is one line on stderr and status 1, without a backtrace.
  # `nettyrack ctl ...` goes to Ctl instead, `nettyrack war ...` to WarCommand. bin/nettyrack
  # checks that this is JRuby (Platform) before loading this file.
  class Launcher
    def initialize(argv, env: ENV, out: $stdout, err: $stderr)
      @argv = argv
      @env = env
      @out = out
      @err = err
    end

    def run
      return Ctl.new(@argv.drop(1), env: @env, out: @out, err: @err).run if @argv.first == "ctl"
      return war if @argv.first == "war"

      cli = CLI.new(env: @env).parse(@argv)
      return say(cli.help) if cli.action == :help
      return say("nettyrack #{VERSION}") if cli.action == :version

      serve(configure(cli))
    rescue Error => e
      @err.puts(e.line)
      1
    rescue Interrupt
      130
    end

    private

    def war
      require_relative "war_command"
      WarCommand.new(@argv.drop(1), out: @out, err: @err).run
    end

    def configure(cli)
      file = cli.config_file ? DSL.load(cli.config_file) : {}
      Configuration.merge(Configuration.env_layer(@env), file, Configuration.port_layer(@env), cli.settings)
    end

    def serve(config)
      enter(config.directory)
      @env["RACK_ENV"] = config.environment
      load_server
      check_tls(JavaConfig.build(**config.server_options)) # a bad value fails here, before a slow app load
      # The engine comes before the app loads: config.ru may publish.
      PubSub.serving(config.pubsub, errors: @err) { serve_app(config) }
    end

    def serve_app(config)
      app = AppLoader.load(config.rackup)
      stop = Orders.new.trap("INT" => :stop, "TERM" => :stop)
      server = start(app, config)
      stop.relay(server.orders) if server.control_url
      reload = ReloadSignal.new(server, out: @out, err: @err).trap if server.tls_engine
      BootLine.lines(server, quiet: config.quiet?).each { |line| say(line) }
      (warning = RailsCheck.warning(server.configuration.threads.last)) && @err.puts(warning)
      order = stop.next until order&.kind == :stop
      reason = order.reason
      say("nettyrack: shutting down (#{reason})") unless config.quiet?
      warn_unfinished(config) unless server.stop
      0
    ensure
      reload&.restore
      stop&.restore
    end

    def check_tls(java_config)
      Java::OrgNettyrackNetty::NettyServer.check_tls(java_config)
    rescue Java::OrgNettyrackNetty::TlsSetupException => e
      raise ConfigError, e.message
    end

    def start(app, config)
      Server.new(app, **config.server_options, development: config.development?, errors: @err,
                      access_log: open_access_log(config.access_log), pubsub: Nettyrack.pubsub).start
    end

    def enter(directory)
      Dir.chdir(directory) if directory
    rescue SystemCallError => e
      raise BootError, "cannot change to directory #{directory}: #{Nettyrack.describe_system_error(e)}"
    end

    def load_server
      require_relative "../nettyrack"
    rescue LoadError => e
      raise BootError, e.message
    end

    def open_access_log(target)
      case target
      when nil then nil
      when :stdout then @out
      else File.open(target, "a").tap { |file| file.sync = true }
      end
    rescue SystemCallError => e
      raise BootError, "cannot open access log #{target}: #{Nettyrack.describe_system_error(e)}"
    end

    def warn_unfinished(config)
      @err.puts("nettyrack: requests still running after the shutdown timeout " \
                "(#{config[:shutdown_timeout]} s) were cut off")
    end

    def say(line)
      @out.puts(line)
      @out.flush
      0
    end
  end
end
