# frozen_string_literal: true

require "yaml"
require_relative "errors"
require_relative "pidfile"
require_relative "version"

module Nettyrack
  # state_path (-S FILE): Puma's state file, a YAML map of the serving process written once it
  # serves (in a hot restart, the new process writes its own), removed on a stop while it still
  # names this process, as the pid file is:
  #
  #   ---
  #   pid: 4242
  #   running_from: "/srv/app/current"
  #   control_url: tcp://127.0.0.1:9293
  #   control_auth_token: 0b7d...
  #   tag: shop
  #   version: 0.1.0
  #
  # `nettyrack ctl -S FILE stats` (.read) finds the control endpoint and its token there, as
  # `pumactl -S FILE` does; the token "none" means none.
  #
  # Flow: Configuration (state_path, state_permission) → Lifetime → here, once serving;
  #   Ctl → .read.
  class StateFile < Pidfile
    def initialize(path, permission: nil, pid: Process.pid)
      super(path, pid: pid)
      @permission = permission
    end

    # control_url: "tcp://HOST:PORT" or "unix:///PATH", or nil; token: a String, :none or nil.
    def write(control_url:, token:, tag: nil)
      state = { "pid" => Process.pid, "running_from" => Dir.pwd, "control_url" => control_url,
                "control_auth_token" => token == :none ? "none" : token, "tag" => tag, "version" => VERSION }.compact
      write_whole(YAML.dump(state), mode: @permission)
    end

    # The state's Hash, read from +path+; ConfigError in one sentence when there is none.
    def self.read(path)
      state = YAML.safe_load(File.read(path))
      raise ConfigError, "#{path} is not a state file (no pid in it)" unless state.is_a?(Hash) && state["pid"]

      state
    rescue SystemCallError => e
      raise ConfigError, "cannot read state file #{path}: #{Nettyrack.describe_system_error(e)}"
    rescue Psych::Exception => e
      raise ConfigError, "#{path} is not a state file (#{e.message.lines.first.strip})"
    end

    private

    def what = "state file"

    def pid_in(text)
      state = YAML.safe_load(text)
      state.is_a?(Hash) ? state["pid"].to_i : 0
    rescue Psych::Exception
      0
    end
  end
end
