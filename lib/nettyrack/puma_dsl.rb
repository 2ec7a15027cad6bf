# frozen_string_literal: true

require "tmpdir"
require_relative "puma_answers"

module Nettyrack
  # The config file methods Puma has and nettyrack's own names do not cover, so that a Puma
  # config file (config/puma.rb) loads unchanged. Mixed into DSL. Three kinds:
  #
  #   honoured   stdout_redirect, log_requests, lowlevel_error_handler, app, plugin :tmp_restart,
  #              load, clear_binds!, set_default_host, inject, get, single, force_shutdown_after,
  #              set_remote_address proxy_protocol: :v1, the hooks on_booted / on_restart /
  #              on_stopped (and their Puma 7 names after_booted, before_restart, after_stopped),
  #              and Puma's spellings of nettyrack's rows (Setting#puma: persistent_timeout...)
  #   run once   on_worker_boot / before_worker_boot (after the app loads, before serving),
  #              on_worker_shutdown / before_worker_shutdown (once stopped), with a boot line
  #   answered   everything of cluster mode and forking (PumaAnswers::WHY): accepted, and
  #              answered once at boot with one line saying why it does not apply
  #
  # Flow: DSL.load → here → a settings layer (:hooks, :lowlevel_error_handler, :app,
  #   :tmp_restart, :not_applied...) → Configuration → Launcher / Lifetime.
  module PumaDSL
    # Puma's hook methods → the event they run at (Hooks).
    HOOKS = { on_booted: :booted, after_booted: :booted, on_restart: :restart, before_restart: :restart,
              on_stopped: :stopped, after_stopped: :stopped, on_worker_boot: :worker_boot,
              before_worker_boot: :worker_boot, on_worker_shutdown: :worker_shutdown,
              before_worker_shutdown: :worker_shutdown }.freeze
    # Puma's `force_shutdown_after :forever`: requests are never cut off, or at least not for a day.
    FOREVER = 86_400

    HOOKS.each do |name, event|
      define_method(name) do |_key = nil, &block|
        raise ConfigError, "#{name} needs a block" unless block

        answer(name, "#{name} { ... }") if PumaAnswers::WHY.key?(name)
        hooks = setting(:hooks)
        lay(:hooks, hooks.merge(event => [*hooks[event], block]))
      end
    end

    (PumaAnswers::WHY.keys - HOOKS.keys - %i[cluster drain_on_shutdown set_remote_address plugin]).each do |name|
      define_method(name) do |*args, **keywords, &block|
        answer(name, PumaDSL.spelled(name, args, keywords, block))
      end
    end

    def self.spelled(name, args, keywords = {}, block = nil)
      words = [*args.map(&:inspect), *keywords.map { |key, value| "#{key}: #{value.inspect}" }].join(", ")
      [name, words.empty? ? nil : words, block ? "{ ... }" : nil].compact.join(" ")
    end

    # Where stdout and stderr go (reopened on SIGHUP); append or truncate at boot.
    #   stdout_redirect "log/puma.stdout.log", "log/puma.stderr.log", true
    def stdout_redirect(stdout = nil, stderr = nil, append = false)
      lay(:redirect_stdout, Settings.fetch(:redirect_stdout).read(stdout)) if stdout
      lay(:redirect_stderr, Settings.fetch(:redirect_stderr).read(stderr)) if stderr
      lay(:redirect_append, append ? true : false)
    end

    # Log each request on stdout (access_log), or not.
    def log_requests(which = true)
      lay(:access_log, which ? :stdout : nil)
    end

    # Called with (exception, env, status) when the app raises; returns the Rack response sent.
    #   lowlevel_error_handler { |e, env, status| [status, {}, ["Something went wrong\n"]] }
    def lowlevel_error_handler(handler = nil, &block)
      lay(:lowlevel_error_handler, callable(:lowlevel_error_handler, handler || block))
    end

    # The Rack app to serve, instead of config.ru's.
    def app(app = nil, &block)
      lay(:app, callable(:app, app || block))
    end

    # plugin :tmp_restart: a touch of tmp/restart.txt asks for a hot restart. No other plugin loads.
    def plugin(name)
      return lay(:tmp_restart, true) if name.to_s == "tmp_restart"

      answer(:plugin, "plugin #{name.inspect}")
    end

    # Reads another config file here, now.
    def load(file)
      instance_eval(File.read(file), file, 1)
      nil
    rescue Errno::ENOENT, Errno::EACCES, Errno::EISDIR => e
      raise ConfigError, "cannot load #{file}: #{Nettyrack.describe_system_error(e)}"
    end

    # Forgets the listeners named so far in this file.
    def clear_binds!
      @layer.delete(:binds)
      nil
    end

    # The host `port` listens on when it names none.
    def set_default_host(host)
      @default_host = host.to_s
      nil
    end

    def default_host
      @default_host || Configuration::DEFAULTS[:host]
    end

    def inject(&block)
      instance_eval(&block)
    end

    # A value this file set, or +default+.
    def get(name, default = nil)
      @layer.fetch(name.to_sym, default)
    end

    # Puma runs the block in single mode, which is the only mode here.
    def single(&block)
      instance_eval(&block)
    end

    def cluster(&_block)
      answer(:cluster, "cluster { ... }")
    end

    # How long requests get to finish on stop: seconds, :immediately (0) or :forever.
    def force_shutdown_after(value = :forever)
      seconds = { forever: FOREVER, immediately: 0 }.fetch(value) { Settings.fetch(:shutdown_timeout).read(value) }
      lay(:shutdown_timeout, seconds)
    end

    def drain_on_shutdown(which = true)
      answer(:drain_on_shutdown, "drain_on_shutdown #{which.inspect}") unless which
    end

    # REMOTE_ADDR: the socket's peer (:socket, the default), or a PROXY protocol header's client.
    def set_remote_address(value = :socket)
      return nil if value == :socket
      return lay(:proxy_protocol, true) if value.is_a?(Hash) && value.key?(:proxy_protocol)

      answer(:set_remote_address, PumaDSL.spelled(:set_remote_address, [value]))
    end

    # stdout is written through at once already.
    def mutate_stdout_and_stderr_to_sync_on_write(_enabled = true) = nil

    private

    def answer(name, spelled)
      lay(:not_applied, PumaAnswers.line(name, spelled, where))
    end

    # "config/puma.rb:12": the config file line calling the method.
    def where
      frame = caller_locations.find { |location| location.path == @path }
      frame ? "#{@path}:#{frame.lineno}" : @path
    end

    def setting(name)
      @layer.fetch(name) { Settings.default(name) }
    end

    def callable(name, value)
      raise ConfigError, "#{name} needs a block or an object that responds to call" unless value.respond_to?(:call)

      value
    end
  end
end
