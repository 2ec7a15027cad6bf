# frozen_string_literal: true

require "json"
require "optparse"
require_relative "coerce"
require_relative "control"
require_relative "control_client"
require_relative "dsl"
require_relative "errors"
require_relative "reload_wait"
require_relative "restart_wait"
require_relative "say"
require_relative "state_file"

module Nettyrack
  # `nettyrack ctl [options] stats|thread-backtraces|stop|restart|reload-app`, from ARGV to an exit status,
  # like Puma's pumactl: where the control endpoint is and its token come from the flags, else
  # $NETTYRACK_CONTROL_URL / $NETTYRACK_CONTROL_TOKEN, else the state file the server wrote
  # (-S FILE, or the config file's state_path), else the config file the server reads (-C
  # FILE, else config/nettyrack.rb or config/puma.rb, as the server finds it); then one request (ControlClient), and its answer on stdout: stats and thread
  # backtraces as pretty JSON, "stop requested" for stop. restart asks for a hot restart, then
  # (RestartWait) waits until a new process answers on the endpoint, or the old one says the
  # restart failed: "restarted: pid 4242 replaced by pid 4310". reload-app asks for a reload of
  # the app inside the server's JVM, then (ReloadWait) waits until it ends and says how: "done:
  # generation 2 serves ..." and status 0, or why not (rolled back, failed, refused) and status 1.
  # Trouble is one line on stderr and status 1.
  # Pure Ruby: no jars, no JVM-heavy work, so it starts fast.
  #
  # Flow: bin/nettyrack ctl → here (flags, ENV, config file via DSL) → ControlClient / RestartWait →
  #   exit status.
  class Ctl
    COMMANDS = { "stats" => [:get, "/stats"], "thread-backtraces" => [:get, "/thread-backtraces"],
                 "stop" => [:post, "/stop"], "restart" => [:post, "/restart"],
                 "reload-app" => [:post, "/reload-app"] }.freeze
    RESTART_WAIT = 300

    def initialize(argv, env: ENV, out: $stdout, err: $stderr)
      @argv = argv
      @env = env
      @out = out
      @err = err
      @flags = {}
    end

    def run
      command = parse
      return say(parser.help) if command == :help

      verb, path = COMMANDS.fetch(command)
      url, token = target
      client = ControlClient.new(url, token)
      return restart(client) if command == "restart"
      return reload(client) if command == "reload-app"

      answer(command, client.call(verb, path))
    rescue Error => e
      @err.puts("nettyrack ctl: #{e.message}")
      1
    rescue Errno::EPIPE
      0 # stdout went to `head` or the like, which had read enough
    end

    private

    def parse
      rest = parser.parse(@argv)
      return :help if @flags[:help]
      raise ConfigError, "which command? #{COMMANDS.keys.join(', ')} (see nettyrack ctl --help)" if rest.empty?
      raise ConfigError, "one command at a time, got: #{rest.join(' ')}" if rest.size > 1
      raise ConfigError, "unknown command #{rest.first} (use #{COMMANDS.keys.join(', ')})" unless COMMANDS.key?(rest.first)

      rest.first
    rescue OptionParser::ParseError => e
      raise ConfigError, "#{e.message} (see nettyrack ctl --help)"
    end

    def parser
      @parser ||= OptionParser.new(nil, 30) do |opts|
        opts.banner = "Usage: nettyrack ctl [options] #{COMMANDS.keys.join('|')}\n\n" \
                      "Asks a running nettyrack for its stats or thread backtraces, to stop (gracefully),\n" \
                      "to restart (a new process) or to reload its app (inside its JVM)."
        opts.separator ""
        opts.on("--control-url URL", "the server's --control-url, tcp://HOST:PORT",
                "or unix:///PATH ($NETTYRACK_CONTROL_URL)") do |value|
          @flags[:url] = value
        end
        opts.on("--control-token TOKEN", "its token, as printed at boot ($NETTYRACK_CONTROL_TOKEN)") do |value|
          @flags[:token] = value
        end
        opts.on("-S", "--state FILE", "read them from the server's state file (its state_path)") do |value|
          @flags[:state] = value
        end
        opts.on("-C", "--config FILE", "read control_url and control_token (or state_path) from the",
                "server's config file (default: config/nettyrack.rb, else config/puma.rb)") do |value|
          @flags[:config] = value
        end
        opts.on("--wait SECONDS", "restart, reload-app: how long to wait for the new process",
                "or code (default #{RESTART_WAIT}; 0: not at all)") do |value|
          @flags[:wait] = Coerce.seconds(value)
        rescue ConfigError => e
          raise ConfigError, "invalid --wait: #{e.message}"
        end
        opts.on("-h", "--help", "print this help and exit") { @flags[:help] = true }
        opts.separator "\nFlags win over the environment, which wins over the state file, then the config file."
      end
    end

    # [[host, port] or a unix Bind, token or nil].
    def target
      file = config_file
      state = state(file)
      url = setting(:url, "--control-url", "NETTYRACK_CONTROL_URL") { |value| Control.url(value) } ||
            state[:control_url] || file[:control_url]
      unless url
        raise ConfigError, "no control URL: pass --control-url tcp://HOST:PORT, set $NETTYRACK_CONTROL_URL, " \
                           "-S the server's state file, or -C the config file that sets control_url"
      end
      token = setting(:token, "--control-token", "NETTYRACK_CONTROL_TOKEN") { |value| value } ||
              state[:control_token] || file[:control_token]
      [url, token == :none ? nil : token]
    end

    def config_file
      path = @flags[:config] || DSL.find
      path ? DSL.load(path) : {}
    end

    # The control URL and token a state file names (-S, else the config's state_path); {} without one.
    def state(file)
      path = @flags[:state] || file[:state_path]
      return {} unless path

      state = StateFile.read(path)
      url = state["control_url"]
      raise ConfigError, "#{path} names no control URL: the server runs without activate_control_app / --control-url" unless url

      { control_url: Control.url(url), control_token: Control.token_setting(state["control_auth_token"] || :none) }
    end

    # The flag's value, else the environment variable's, read by the block; nil when neither is set.
    def setting(key, flag, variable)
      source, value = @flags.key?(key) ? [flag, @flags[key]] : ["$#{variable}", @env[variable]]
      return nil if value.nil? || value.strip.empty?

      yield value
    rescue ConfigError => e
      raise ConfigError, "invalid #{source}: #{e.message}"
    end

    def restart(client)
      before = RestartWait.pid(client)
      client.call(:post, "/restart")
      wait = @flags.fetch(:wait, RESTART_WAIT)
      return say("restart requested (pid #{before})") if wait.zero?

      say("restarted: pid #{before} replaced by pid #{RestartWait.new(client, before).until_replaced(wait)}")
    end

    def reload(client)
      client.call(:post, "/reload-app")
      wait = @flags.fetch(:wait, RESTART_WAIT)
      return say("reload requested") if wait.zero?

      done, status = ReloadWait.new(client).until_ended(wait)
      return say("reloaded: #{status.delete_prefix('done: ')}") if done

      raise ControlClient::Failure, "reload #{status}"
    end

    def answer(command, body)
      return say("stop requested") if command == "stop"

      say(JSON.pretty_generate(JSON.parse(body)))
    rescue JSON::ParserError => e
      raise ControlClient::Failure, "the control endpoint sent something that is not JSON (#{e.message.lines.first.strip})"
    end

    def say(text) = Say.line(@out, text)
  end
end
