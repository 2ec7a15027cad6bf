# frozen_string_literal: true

require_relative "app_loader"
require_relative "cli"
require_relative "configuration"
require_relative "ctl"
require_relative "dsl"
require_relative "errors"
require_relative "inheritance"
require_relative "lifetime"
require_relative "lowlevel_errors"
require_relative "pidfile"
require_relative "pubsub_setting"
require_relative "relaunch"
require_relative "say"
require_relative "server_setup"
require_relative "state_file"
require_relative "stdio_redirect"

module Nettyrack
  # `nettyrack [options] [config.ru]`, from ARGV to an exit status:
  #
  #   [a hot restart's new process: the old one's sockets (Inheritance)] → CLI + config file
  #   (DSL: -C FILE, else config/nettyrack.rb, else config/puma.rb) + ENV → one Configuration
  #   → chdir, RACK_ENV → jars → the pid and state files checked → access log → ServerSetup
  #   (the server's ServerConfig, built once: every value checked by Java, the TLS files read)
  #   → stdout/stderr redirected, settings that do not apply said → pub/sub engine
  #   (Nettyrack.pubsub) → config.ru (AppLoader) or the config's app → Lifetime (the setup
  #   handed down to its Server): open, warm up, serve, orders (stop, hot restart) → 0
  #
  # Any Nettyrack::Error on the way is one line on stderr and status 1, without a backtrace (and,
  # in a hot restart's new process, the old process is told it, and keeps serving).
  # `nettyrack ctl ...` goes to Ctl instead, `nettyrack war ...` to WarCommand. bin/nettyrack
  # checks that this is JRuby (Platform) before loading this file.
  class Launcher
    # program: the script a hot restart starts again ($PROGRAM_NAME), with argv.
    def initialize(argv, env: ENV, out: $stdout, err: $stderr, program: $PROGRAM_NAME)
      @argv = argv
      @env = env
      @out = out
      @err = err
      @restart = { command: Relaunch.command(argv, env: env, program: program), env: env.to_h,
                   directory: Launcher.start_directory(env) }
    end

    # Where this process started: $PWD when it is the same directory (a deploy's `current`
    # symlink stays a symlink, so a hot restart starts in the release it points to now).
    def self.start_directory(env)
      pwd = env["PWD"]
      pwd && File.directory?(pwd) && File.identical?(pwd, Dir.pwd) ? pwd : Dir.pwd
    end

    def run
      return Ctl.new(@argv.drop(1), env: @env, out: @out, err: @err).run if @argv.first == "ctl"
      return war if @argv.first == "war"

      cli = CLI.new(env: @env).parse(@argv)
      return say(cli.help) if cli.action == :help
      return say("nettyrack #{VERSION}") if cli.action == :version

      @inheritance = successor_inheritance
      serve(configure(cli))
    rescue Error => e
      @err.puts(e.line)
      @inheritance&.failed(e.line)
      1
    rescue Interrupt
      130
    ensure
      @inheritance&.close
    end

    private

    def war
      require_relative "war_command"
      WarCommand.new(@argv.drop(1), out: @out, err: @err).run
    end

    # A hot restart's new process takes the old one's sockets first, so that whatever fails
    # later (a config file, config.ru) reaches the old process, which then keeps serving.
    def successor_inheritance
      return nil unless @env[Inheritance::HANDOFF]

      load_server
      Inheritance.from(@env)
    end

    # -C FILE, else config/nettyrack.rb or config/puma.rb (DSL.find), as Puma finds its file.
    def configure(cli)
      path = cli.config_file || (DSL.find unless cli.no_config)
      file = path ? DSL.load(path) : {}
      @config_file = path && File.expand_path(path) # a reload reads it again, after the chdir to `directory`
      @config_layer = file
      config = Configuration.merge(Configuration.env_layer(@env), file, Configuration.port_layer(@env), cli.settings)
      if path && !cli.config_file && !config.quiet?
        say("nettyrack: settings from #{path} (found there; -C FILE for another, --no-config for none)")
      end
      config
    end

    def serve(config)
      files = { pidfile: config[:pidfile] && Pidfile.new(config[:pidfile]),
                state_file: config[:state_path] && StateFile.new(config[:state_path], permission: config[:state_permission]) }
      enter(config.directory)
      @env["RACK_ENV"] = config.environment
      load_server
      files.each_value { |file| file&.check }
      access_log = open_access_log(config.access_log)
      # Java checks every value, and the certificates are read, here: before a slow app load, and
      # before a redirect, so that a bad value is said on the terminal. (The streams follow the
      # redirect: it moves the file descriptors.)
      setup = ServerSetup.new(config, access_log: access_log, errors: @err).check_tls
      redirect = StdioRedirect.from(config, successor: @env.key?(Inheritance::HANDOFF))&.apply(out: @out)
      config[:not_applied].uniq.each { |line| @err.puts(line) }
      @inheritance ||= Inheritance.from(@env)
      lifetime = Lifetime.new(setup, inheritance: @inheritance, files: files, restart: @restart,
                                     logs: [redirect, access_log].grep_v(nil).reject { |log| log == @out },
                                     out: @out, err: @err, config_file: @config_file, config_layer: @config_layer)
      # The engine comes before the app loads: config.ru may publish.
      PubSubSetting.serving(config.pubsub, history: config.push_history, errors: @err) { lifetime.run(app(config)) }
    end

    # config.ru's app, or the config file's (Puma's `app`), behind its lowlevel_error_handler.
    def app(config)
      app = config[:app] || AppLoader.load(config.rackup)
      handler = config[:lowlevel_error_handler]
      handler ? LowlevelErrors.new(app, handler, err: @err) : app
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
      else File.open(File.expand_path(target), "a").tap { |file| file.sync = true } # absolute: SIGHUP reopens it
      end
    rescue SystemCallError => e
      raise BootError, "cannot open access log #{target}: #{Nettyrack.describe_system_error(e)}"
    end

    def say(line) = Say.line(@out, line)
  end
end
