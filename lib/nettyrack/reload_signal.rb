# frozen_string_literal: true

require_relative "signals"

module Nettyrack
  # SIGHUP reloads the certificates of a server's ssl:// listeners (Server#reload_tls): new
  # connections get the files as they are now, open ones keep theirs. Files that do not make a
  # TLS setup leave the certificates in use and say why, in one line on err. The trap only
  # pushes onto a Queue; a thread of ours does the reading. Installed by the launcher only when
  # there are ssl:// listeners: otherwise SIGHUP keeps its default meaning.
  #
  #   reload = ReloadSignal.new(server, out: $stdout, err: $stderr).trap
  #   ...
  #   reload.restore
  #
  # Flow: SIGHUP → here (a thread of ours) → Server#reload_tls → the Java ssl:// listeners.
  class ReloadSignal
    def initialize(server, out:, err:)
      @server = server
      @out = out
      @err = err
      @requests = Queue.new
    end

    def trap
      @previous = Signals.trap("HUP") { @requests.push(:reload) }
      @thread = Thread.new { reload while @requests.pop }
      @thread.name = "nettyrack-tls-reload"
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
      count = @server.reload_tls
      @out.puts("nettyrack: TLS certificates reloaded (SIGHUP, #{count} listener#{'s' unless count == 1})")
      @out.flush
    rescue ConfigError => e
      @err.puts("nettyrack: SIGHUP: TLS certificates not reloaded, the ones in use stay: #{e.message}")
    end
  end
end
