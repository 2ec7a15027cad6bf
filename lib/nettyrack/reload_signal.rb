# frozen_string_literal: true

require_relative "say"
require_relative "signals"

module Nettyrack
  # SIGHUP, as Puma and nginx users expect: the log files open again (stdout_redirect's files
  # and the access log's, so that logrotate can rename them and a new file is written), and
  # the certificates of the ssl:// listeners reload (Server#reload_tls: new connections get the
  # files as they are now, open ones keep theirs). Never a stop. What cannot be reopened or
  # reloaded stays as it was, and is said in one line on err. The trap only pushes onto a
  # Queue; a thread of ours does the work.
  #
  #   reload = ReloadSignal.new(server, logs: [redirect, access_log_file], out: $stdout, err: $stderr).trap
  #   ...
  #   reload.restore
  #
  # Flow: SIGHUP → here (a thread of ours) → StdioRedirect#reopen, File#reopen, Server#reload_tls.
  class ReloadSignal
    # logs: things with #reopen (StdioRedirect), or Files opened for appending.
    def initialize(server, logs:, out:, err:)
      @server = server
      @logs = logs
      @out = out
      @err = err
      @requests = Queue.new
    end

    def trap
      @previous = Signals.trap("HUP") { @requests.push(:reload) }
      @thread = Thread.new { reload while @requests.pop }
      @thread.name = "nettyrack-sighup"
      self
    end

    # Puts back SIGHUP's previous handler and ends the thread.
    def restore
      Signal.trap("HUP", @previous || "DEFAULT")
      @requests.push(nil)
      @thread.join
    end

    private

    def reload
      done = [reopen_logs, reload_tls].compact
      say(done.empty? ? "nothing to reopen or reload (no log files, no ssl:// listeners)" : done.join("; "))
    end

    def reopen_logs
      paths = @logs.flat_map { |log| reopen(log) }
      paths.empty? ? nil : "reopened #{paths.join(', ')}"
    end

    def reopen(log)
      return log.reopen unless log.is_a?(File)

      log.reopen(log.path, "a").sync = true
      [log.path]
    rescue Error, SystemCallError => e
      @err.puts("nettyrack: SIGHUP: a log file stays as it was: #{e.message}")
      []
    end

    def reload_tls
      return nil unless @server.tls_engine

      count = @server.reload_tls
      "TLS certificates reloaded (#{count} listener#{'s' unless count == 1})"
    rescue ConfigError => e
      @err.puts("nettyrack: SIGHUP: TLS certificates not reloaded, the ones in use stay: #{e.message}")
      nil
    end

    def say(what) = Say.line(@out, "nettyrack: SIGHUP: #{what}")
  end
end
