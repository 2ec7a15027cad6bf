# frozen_string_literal: true

require_relative "errors"
require_relative "relaunch"
require_relative "warmup"

module Nettyrack
  # What a starting server was given besides its settings: listening sockets to serve instead
  # of binding anew, and someone to tell once it serves. From the environment:
  #
  #   NETTYRACK_HANDOFF, NETTYRACK_HANDOFF_FDS   this process is the new one of a hot restart:
  #       the old process's sockets come over the unix socket named (a Java Predecessor), and
  #       the old process hears "ready" or "failed: why"
  #   LISTEN_PID, LISTEN_FDS                     systemd's socket activation (sd_listen_fds)
  #
  #   inheritance = Inheritance.from(ENV)  # before anything can fail: the old process waits
  #   server.inherit(inheritance.sockets)
  #   ... server serves ...
  #   inheritance.served(err)              # or inheritance.failed(line)
  #
  # Flow: ENV of a starting process → here → Server#inherit (before #open) → Lifetime tells whoever
  #   waits.
  class Inheritance
    HANDOFF = "NETTYRACK_HANDOFF"
    HANDOFF_FDS = "NETTYRACK_HANDOFF_FDS"
    # The nice value the old process served at: the new one, started niced, comes back to it.
    NICE_AFTER = "NETTYRACK_NICE_AFTER"
    # The variables only this process was meant to read (a new process of a hot restart is
    # given its own; an executable WAR's unpacked directory goes when this process exits).
    PRIVATE = [HANDOFF, HANDOFF_FDS, NICE_AFTER, Warmup::RECENT, "LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES",
               Relaunch::UNPACKED].freeze
    CONNECT_TIMEOUT_MILLIS = 10_000

    def self.from(env)
      if env[HANDOFF]
        count = Integer(env[HANDOFF_FDS].to_s, exception: false)
        raise BootError, "$#{HANDOFF_FDS} is not a count: #{env[HANDOFF_FDS].inspect}" unless count&.>=(0)

        predecessor = Java::OrgNettyrackNettyListen::Predecessor.connect(env[HANDOFF], count, CONNECT_TIMEOUT_MILLIS)
        new(predecessor.sockets, predecessor, nice_after: Integer(env[NICE_AFTER].to_s, exception: false))
      else
        new(Java::OrgNettyrackNettyListen::InheritedSockets.from_systemd(env.to_h, Process.pid), nil)
      end
    rescue Java::JavaIo::IOException => e
      raise BootError, "cannot take over the listening sockets: #{e.message}"
    end

    attr_reader :sockets

    def initialize(sockets, predecessor, nice_after: nil)
      @sockets = sockets
      @predecessor = predecessor
      @nice_after = nice_after
    end

    # Whether this process is the new one of a hot restart.
    def successor?
      !@predecessor.nil?
    end

    # Before serving: a new process that booted niced comes back to the old one's nice value
    # (its workers to +worker_nice+), where it may lower its nice value; one line says when not.
    def restore_priority(worker_nice, err)
      return unless @nice_after

      failed = Java::OrgNettyrackCore::ProcessNice.restore(@nice_after, worker_nice,
                                                           Java::OrgNettyrackJruby::PosixPriority.new(JRuby.runtime))
      return if failed.zero?

      err.puts("nettyrack: #{failed} threads keep the nice value this process booted at (#{@nice_after} + restart_nice): " \
               "lowering it needs root, CAP_SYS_NICE or RLIMIT_NICE (systemd: LimitNICE=#{@nice_after})")
    end

    # The server serves: sockets no listener took are closed (said on err), and the old process
    # is told, so it stops accepting and drains.
    def served(err)
      @sockets.close_untaken.each do |address|
        err.puts("nettyrack: no listener for the inherited socket #{address} any more: closed")
      end
      @predecessor&.ready
      close
    end

    # This process will not serve: the old one hears why, and keeps serving.
    def failed(line)
      @predecessor&.failed(line.delete_prefix("nettyrack: "))
      @sockets.close_untaken
      close
    end

    def close
      @predecessor&.close
      @predecessor = nil
    end
  end
end
