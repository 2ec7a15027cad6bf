# frozen_string_literal: true

module Nettyrack
  # What a unit of Type=notify hears from nettyrack (sd_notify, through $NOTIFY_SOCKET; nothing
  # at all without it):
  #
  #   READY=1 and MAINPID=<pid>   once the server serves (after its warm-up); in a hot restart,
  #                               from the new process, which systemd then tracks as the main
  #                               one (the unit needs NotifyAccess=all)
  #   RELOADING=1                 when a hot restart starts; READY=1 again when it failed
  #   STOPPING=1                  when a stop starts (never after a hand-over: the service goes on)
  #
  # A message that cannot be sent is said once on err; the server goes on.
  #
  # Flow: Lifetime (serving, stopping) → here → $NOTIFY_SOCKET → systemd.
  class Systemd
    def initialize(env, err:)
      socket = env["NOTIFY_SOCKET"]
      @notify = socket && Java::OrgNettyrackNetty::SystemdNotify.from_environment(socket)
      @err = err
    end

    def ready(status)
      notify("READY=1\nMAINPID=#{Process.pid}\nSTATUS=#{status}")
    end

    def reloading(status)
      notify("RELOADING=1\n#{Java::OrgNettyrackNetty::SystemdNotify.monotonic_micros}\nSTATUS=#{status}")
    end

    def stopping
      notify("STOPPING=1")
    end

    private

    def notify(state)
      @notify&.tell(state)
    rescue Java::JavaIo::IOException => e
      @err.puts("nettyrack: cannot notify systemd (#{e.message})") unless @failed
      @failed = true
    end
  end
end
